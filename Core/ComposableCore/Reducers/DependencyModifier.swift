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
  let base: Base
  let update: (inout DependencyValues) -> Void

  /// Runs the base reducer with the dependency overridden; effects created there capture it.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }
}
