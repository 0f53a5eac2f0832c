// TCA 1.25's enum scopes: scope to a presented destination as a whole
// (`store.scope(state: \.$destination, action: \.destination)`), then chain into one of its
// cases. A reducer case gives a store of its child; any other case (an alert) gives its data.

extension Store {
  /// A store for the presented destination while one is presented, `nil` otherwise:
  /// `store.scope(state: \.$destination, action: \.destination)`. The same store as the scope
  /// through the optional state (`\.destination`).
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toPresentationState: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    scope(
      state: toPresentationState.appending(path: \.wrappedValue), action: toPresentationAction)
  }

  /// A store for the presented destination while one is presented; the same as
  /// `scope(state:action:)`.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toPresentationState: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toPresentationState, action: toPresentationAction)
  }
}

extension Bindable {
  /// A binding to the store of a presented child: reading it gives the child's store while it is
  /// presented; setting it to `nil` dismisses the child, as a sheet closed by the user does.
  public func scope<State, Action, ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Binding<Store<ChildState, ChildAction>?> where Value == Store<State, Action> {
    let store = wrappedValue
    return Binding(
      get: { store.scope(state: toChildState, action: toPresentationAction) },
      set: { newValue in
        guard newValue == nil, store.state[keyPath: toChildState] != nil else { return }
        store.send(toPresentationAction(.dismiss))
      }
    )
  }

  /// A binding to the store of a presented destination, to chain into one of its cases:
  /// `$store.scope(state: \.$destination, action: \.destination).edit`.
  public func scope<State, Action, ChildState, ChildAction>(
    state toPresentationState: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Binding<Store<ChildState, ChildAction>?> where Value == Store<State, Action> {
    scope(
      state: toPresentationState.appending(path: \.wrappedValue), action: toPresentationAction)
  }

  /// The same as `scope(state:action:)`, unlabelled.
  public func scope<State, Action, ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState?>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Binding<Store<ChildState, ChildAction>?> where Value == Store<State, Action> {
    scope(state: toChildState, action: toPresentationAction)
  }

  /// The same as `scope(state:action:)`, unlabelled.
  public func scope<State, Action, ChildState, ChildAction>(
    _ toPresentationState: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Binding<Store<ChildState, ChildAction>?> where Value == Store<State, Action> {
    scope(state: toPresentationState, action: toPresentationAction)
  }
}

/// A store of an enum reducer's state, whose cases (`store.case`) can be reached by case key
/// path. `@Reducer` enums give their stores this.
@MainActor
public protocol _StoreWithCaseScope {
  /// The enum of the store's cases.
  associatedtype _CaseScope: CasePathable
  /// The case the store's state is in.
  var _caseScope: _CaseScope { get }
}

extension Store: _StoreWithCaseScope
where
  State: CaseReducerState,
  State.StateReducer.Action == Action,
  State.StateReducer.CaseScope: CasePathable
{
  /// The case the store's state is in: `store.case`.
  public var _caseScope: State.StateReducer.CaseScope { self.case }
}

/// An optional store of an enum reducer's state, which a binding chains into by case.
@MainActor
public protocol _OptionalStoreWithCaseScope: ExpressibleByNilLiteral {
  /// The enum of the store's cases.
  associatedtype _CaseScope: CasePathable
  /// The case the store's state is in, `nil` without a store.
  var _optionalCaseScope: _CaseScope? { get }
}

extension Optional: _OptionalStoreWithCaseScope where Wrapped: _StoreWithCaseScope {
  /// The case the store's state is in, `nil` without a store.
  public var _optionalCaseScope: Wrapped._CaseScope? {
    self?._caseScope
  }
}

extension Binding where Value: _OptionalStoreWithCaseScope {
  /// A binding to one case of a presented destination: a child's store for a reducer case, the
  /// data for any other; `nil` in another case or with nothing presented. Setting it to `nil`
  /// dismisses the destination.
  public subscript<Case>(
    dynamicMember keyPath: KeyPath<
      Value._CaseScope.AllCasePaths, AnyCasePath<Value._CaseScope, Case>
    >
  ) -> Binding<Case?> {
    Binding<Case?>(
      get: {
        self.wrappedValue._optionalCaseScope.flatMap {
          Value._CaseScope.allCasePaths[keyPath: keyPath].extract(from: $0)
        }
      },
      set: { newValue in
        if newValue == nil { self.wrappedValue = nil }
      }
    )
  }
}
