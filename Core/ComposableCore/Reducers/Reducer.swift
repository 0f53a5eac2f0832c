/// A feature's logic: how an action changes state, and which effects it starts.
///
/// Implement either ``reduce(into:action:)`` directly, or ``body`` to compose other reducers with
/// ``ReducerBuilder``, as in TCA.
///
/// A reducer type is usable from any isolation (`SendableMetatype`): case paths into a generic
/// reducer's actions capture its child's type, and effects run off the main actor.
public protocol Reducer<State, Action>: SendableMetatype {
  /// The state the reducer evolves.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  /// The composed reducer a `body` returns; `Never` when the reducer implements `reduce` itself.
  associatedtype Body

  /// Evolves `state` for `action` and returns the effects to run.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is made of, run in order for each action.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// Runs `body`, a value of this reducer's ``body`` built earlier, in place: how a store runs a
  /// body it built once. Provided for every reducer; a reducer implements `reduce(into:action:)` or
  /// `body`, not both.
  static func _reduce(body: inout Body, into state: inout State, action: Action) -> Effect<Action>

  /// Runs this reducer where it is kept, as ``reduce(into:action:)`` does: how a store runs a body
  /// it built once. Provided for every reducer; nothing changes the reducer.
  mutating func _reduceInPlace(into state: inout State, action: Action) -> Effect<Action>
}

extension Reducer {
  // Called on the body where the store keeps it: `body.reduce(…)` on the `inout` body copied an
  // operator out of its place before running it, where this reads its parts in place (ten `ifLet`
  // levels sent at the root: 1,708 -> 1,648 instructions a send). A requirement, not only an
  // extension method: called as one, the same code measured 49 instructions more there.
  /// Runs ``reduce(into:action:)``.
  @inlinable @inline(__always)
  public mutating func _reduceInPlace(into state: inout State, action: Action) -> Effect<Action> {
    reduce(into: &state, action: action)
  }
}

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body; asking for it is a
  /// programming error.
  public var body: Body {
    fatalError(
      """
      "\(Self.self)" implements "reduce(into:action:)", so it has no "body". Do not access \
      "body" of such a reducer directly.
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs the reducer's ``body``.
  ///
  /// Called directly (`Child().reduce(into:action:)` inside a `Reduce`), the body is built for
  /// this call, as in TCA. Inside a store, the body is built once for the store (see
  /// ``_BuiltReducer``).
  @inlinable
  public func reduce(into state: inout Body.State, action: Body.Action) -> Effect<Body.Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer whose state and action are those of `R`: `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
