extension Reducer {
  /// Overrides one dependency for this reducer and the effects it returns.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Changes one dependency in place for this reducer and the effects it returns.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer `dependency(_:_:)` returns.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  // Held as a store's tree holds a reducer, so that its body is built once, under the changed
  // dependencies, not again for every action.
  let base: _BuiltReducer<Base>
  let update: (inout DependencyValues) -> Void

  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = _BuiltReducer(base)
    self.update = update
  }

  /// Runs the base reducer with the dependency overridden; effects created there capture it.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }
}
