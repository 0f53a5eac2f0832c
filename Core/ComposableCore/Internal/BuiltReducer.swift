/// A reducer as it runs inside one store: a reducer with a `body` builds it the first time it
/// runs, and keeps it when the store made it (``ReducerTree``); made anywhere else, it builds it
/// for each call.
///
/// Every reducer written in a `@ReducerBuilder` (a `body`, a `Scope`'s child, an `ifLet`'s
/// destination) is held in one of these, and so is a store's root reducer, the reducer a
/// modifier (`.dependency`, `_printChanges`, `onChange`, `recording`) holds, and the parent an
/// operator (`ifLet`, `ifCaseLet`, `forEach`, presentation) runs after its child, which may be a
/// feature with a body (`Feature().ifLet(…)`) as well as a `Reduce`. A body is built once
/// for each place it appears in each store's reducer tree, under the dependencies current when it
/// first runs, and lives and dies with that tree: two stores never share one, and nothing is
/// kept per type or per process. Building a body is far from free (every case key path literal
/// in it is instantiated by the runtime), which is why it is not rebuilt for every action.
public final class _BuiltReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  // The body keeps its own type, so that where the feature's type is known the body runs
  // specialised and inlined into its parent, not through a closure. It lives behind a pointer so
  // that each action reaches it in place (`inout`: a borrow of a stored property or of a
  // pointee is copied for every call, a retain and a release for each reference it holds).
  // Written once, by the first action, on the store's actor, and only read after, so the
  // exclusivity checks a stored property pays on each access (about 80 instructions a level)
  // would guard nothing.
  @usableFromInline @exclusivity(unchecked) var built: UnsafeMutablePointer<Base.Body>?
  /// Whether this was made for a store's reducer tree, which keeps it, and so the body it
  /// builds, for the store's life; or anywhere else (``ReducerTree``), where its body is made
  /// for each call.
  @usableFromInline let isKept: Bool

  /// Holds `base`, for the store whose reducer tree is being made, if any (``ReducerTree``).
  @inlinable
  public init(_ base: Base) {
    self.base = base
    self.isKept = ReducerTree.makesKeptReducers
  }

  deinit {
    if let built {
      built.deinitialize(count: 1)
      built.deallocate()
    }
  }

  // Always inlined into the operator that holds it, so that a level of nesting is one call, not
  // two; building the body stays out of line.
  /// Runs the base reducer: its own `reduce`, or its body, built on the first call when a store
  /// keeps this, else made for the call.
  @inlinable @inline(__always)
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // Known when this is specialised: reducers without a body are called directly.
    if Base.Body.self == Never.self {
      return base.reduce(into: &state, action: action)
    }
    if let built {
      return Base._reduce(body: &built.pointee, into: &state, action: action)
    }
    return reduceBuilding(into: &state, action: action)
  }

  // A body kept by no store is made for each call, as in TCA: a reducer made before a store and
  // handed to two would otherwise give both one body, and whatever it made.
  @inlinable @inline(never)
  func reduceBuilding(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard isKept else {
      var body = ReducerTree.making(kept: false) { base.body }
      return Base._reduce(body: &body, into: &state, action: action)
    }
    let body = UnsafeMutablePointer<Base.Body>.allocate(capacity: 1)
    body.initialize(to: ReducerTree.making(kept: true) { base.body })
    built = body
    return Base._reduce(body: &body.pointee, into: &state, action: action)
  }
}

extension Reducer where Body == Never {
  /// A reducer without a body has none to run (``_BuiltReducer`` calls its
  /// `reduce(into:action:)` directly and never asks).
  @inlinable
  public static func _reduce(
    body: inout Never, into _: inout State, action _: Action
  ) -> Effect<Action> {}
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs a body this reducer built earlier.
  @inlinable
  public static func _reduce(
    body: inout Body, into state: inout State, action: Action
  ) -> Effect<Action> {
    body._reduceInPlace(into: &state, action: action)
  }
}

/// Whether the reducers made now are kept in a store's reducer tree, for the store's life: those
/// a store makes from its reducer closure, and the bodies the kept ``_BuiltReducer``s build.
/// Any other is made for one call, as an action runs (`Child().reduce(into:action:)` or
/// `Scope { … }.reduce(into:action:)` inside a `Reduce`), and made again on the next, all it
/// remembered gone; or outside any store, and may be handed to several.
///
/// A reducer not kept runs as in TCA: a body it holds is made for each call, and operators that
/// skip work on what they remember between actions (``ChildIdentity``, `PresentedCases`:
/// whether the child ever started work a removal must end) do the work every time.
@usableFromInline
package enum ReducerTree {
  @TaskLocal static var isKept = false

  /// Whether reducers made now are kept in a store's tree.
  @usableFromInline package static var makesKeptReducers: Bool { isKept }

  /// Runs `body`, whose reducers are kept in a store's tree when `kept` is true.
  @usableFromInline package static func making<T>(kept: Bool, _ body: () -> T) -> T {
    $isKept.withValue(kept, operation: body)
  }
}
