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
    self.init(built: _BuiltReducer(base), update: update)
  }

  init(built base: _BuiltReducer<Base>, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  /// Overrides one more dependency, staying one reducer of the same type, as TCA's does, so
  /// that a chain of overrides has a type that can be written. Overrides written nearer the base
  /// win, as they would nested.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    Self(built: base) { [update] values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Changes one more dependency in place, staying one reducer of the same type.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> Self {
    Self(built: base) { [update] values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }

  /// Runs the base reducer with the dependency overridden; effects created there capture it.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }
}
