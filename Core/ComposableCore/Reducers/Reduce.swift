/// A reducer made from a closure: the place a feature writes its own logic.
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>

  /// Makes a reducer from a function that evolves state for an action and returns effects.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Type-erases another reducer. Made in a store's reducer tree, a reducer with a body builds
  /// it once, on first use; made anywhere else, for each call.
  @inlinable
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = _BuiltReducer(reducer).reduce(into:action:)
  }

  /// Calls the closure.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer that does nothing: the body of a feature with no logic of its own yet.
public struct EmptyReducer<State, Action>: Reducer {
  /// Makes a reducer that leaves state alone and returns no effect.
  @inlinable
  public init() {}

  /// Returns `.none`.
  @inlinable
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
    .none
  }
}

/// Groups several reducers into one, so a modifier such as `ifLet` applies to all of them.
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline
  let reducers: Reducers

  /// Combines the reducers the builder lists, run in order.
  @inlinable
  public init(
    @ReducerBuilder<State, Action> _ build: () -> Reducers
  ) {
    self.reducers = build()
  }

  /// Runs the combined reducers.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
