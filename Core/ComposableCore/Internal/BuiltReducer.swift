/// A reducer as it runs inside one store: a reducer with a `body` builds it the first time it
/// runs, and keeps it.
///
/// Every reducer written in a `@ReducerBuilder` (a `body`, a `Scope`'s child, an `ifLet`'s
/// destination) is held in one of these, and so is a store's root reducer. A body is built once
/// for each place it appears in each store's reducer tree, under the dependencies current when it
/// first runs, and lives and dies with that tree: two stores never share one, and nothing is
/// kept per type or per process. Building a body is far from free (every case key path literal
/// in it is instantiated by the runtime), which is why it is not rebuilt for every action.
public final class _BuiltReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  // Written once, by the first action, on the store's actor, and only read after: the dynamic
  // exclusivity check each read paid (about 80 instructions a level) guards nothing here.
  @usableFromInline @exclusivity(unchecked) var run:
    ((inout Base.State, Base.Action) -> Effect<Base.Action>)?

  /// Holds `base` for one store's reducer tree.
  @inlinable
  public init(_ base: Base) {
    self.base = base
  }

  /// Runs the base reducer: its own `reduce`, or its body, built on the first call.
  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // Known when this is specialised: reducers without a body are called directly.
    if Base.Body.self == Never.self {
      return base.reduce(into: &state, action: action)
    }
    if let run {
      return run(&state, action)
    }
    let built = base._buildBody()
    run = built
    return built(&state, action)
  }
}

extension Reducer {
  /// A reducer without a body runs `reduce(into:action:)` (``_BuiltReducer`` calls those
  /// directly and never asks).
  @inlinable
  public func _buildBody() -> (inout State, Action) -> Effect<Action> {
    { self.reduce(into: &$0, action: $1) }
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Builds the body once; the returned function runs it.
  @inlinable
  public func _buildBody() -> (inout State, Action) -> Effect<Action> {
    let body = self.body
    return { body.reduce(into: &$0, action: $1) }
  }
}
