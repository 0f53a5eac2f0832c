// The other spellings of `scope` that TCA accepts: unlabelled (`store.scope(\.child, action:
// \.child)`, TCA 1.25's preferred form), forwarding to the labelled form so that a store scoped
// either way is the same cached store, and the closure form of TCA 1.0–1.4 code.

extension Store {
  /// A store for a child feature; the same as `scope(state:action:)`.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: toChildState, action: toChildAction)
  }

  /// A store for optional child state while it is present; the same as `scope(state:action:)`.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: toChildAction)
  }

  /// A store for presented child state while it is presented; the same as
  /// `scope(state:action:)`.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState?>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: toPresentationAction)
  }

  /// One store per element of an identified collection; the same as `scope(state:action:)`.
  @inlinable
  public func scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    _ toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> StoreCollection<ElementID, ElementState, ElementAction> {
    scope(state: toElements, action: toElementAction)
  }

  /// A store whose state a function derives from this store's and whose actions a function
  /// embeds in this store's, as TCA 1.0–1.4 code scoped. Closures cannot be compared, so each
  /// call makes a new store; key paths give the same store each time.
  @available(
    *, deprecated, message: "Pass 'state' a key path and 'action' a case key path, instead."
  )
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (_ state: State) -> ChildState,
    action fromChildAction: @escaping (_ childAction: ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(
      core: ScopedCore<State, Action, ChildState, ChildAction>(
        base: core, toChild: ChildReader(read: { toChildState($0) })),
      send: { [sendAction] in sendAction(fromChildAction($0)) }
    )
  }
}
