import OrderedCollections

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
    scopeThroughFunctions(state: toChildState, action: fromChildAction)
  }

  /// The closure form's store, which the runtime's own Combine-era forms make too.
  func scopeThroughFunctions<ChildState, ChildAction>(
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

// The scopes again with the action named in the action's `AllCasePaths`, which `action: \.child`
// resolves to when the action is `@CasePathable` (see `CasePathableForms.swift`): the child's
// store embeds its actions through the generated case path, looked up once. A store scoped
// either way is the same cached store.
extension Store where Action: CasePathable {
  /// A store for a child feature; see the case key path form.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: _CasePathMember<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scopeChild(state: toChildState, action: ScopeAction(member: toChildAction)) {
      CaseAccess(toChildAction)
    }
  }

  /// A store for optional child state while it is present; see the case key path form.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: _CasePathMember<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scopeOptional(state: toChildState, action: ScopeAction(member: toChildAction)) {
      CaseAccess(toChildAction)
    }
  }

  /// A store for presented child state while it is presented; see the case key path form.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toPresentationAction: _CasePathMember<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    scopePresented(state: toChildState, action: ScopeAction(member: toPresentationAction)) {
      CaseAccess(toPresentationAction)
    }
  }

  /// One store per element of an identified collection; see the case key path form.
  @inlinable
  public func scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action toElementAction: _CasePathMember<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> StoreCollection<ElementID, ElementState, ElementAction> {
    scopeRows(state: toElements, action: ScopeAction(member: toElementAction)) {
      CaseAccess(toElementAction)
    }
  }

  /// The child's store, unlabelled.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState>,
    action toChildAction: _CasePathMember<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: toChildState, action: toChildAction)
  }

  /// The optional child's store, unlabelled.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState?>,
    action toChildAction: _CasePathMember<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: toChildAction)
  }

  /// The presented child's store, unlabelled.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ toChildState: KeyPath<State, ChildState?>,
    action toPresentationAction: _CasePathMember<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: toChildState, action: toPresentationAction)
  }

  /// The rows' stores, unlabelled.
  @inlinable
  public func scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    _ toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action toElementAction: _CasePathMember<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> StoreCollection<ElementID, ElementState, ElementAction> {
    scope(state: toElements, action: toElementAction)
  }
}

// What both spellings of each scope share: the child's store, made from the case `access` makes
// (from a case key path, or once from the generated case path), cached under `action`.
extension Store {
  /// The optional child's store, its actions embedded by the case `access` makes; `action`
  /// names that case, for the store's cache.
  @inlinable
  func scopeOptional<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action: ScopeAction,
    access: () -> CaseAccess<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    _scope(
      state: toChildState, action: action, isPresentation: false,
      toChild: { Self.optionalChild(at: toChildState) },
      sending: { [sendAction] in
        let embed = access()
        return { sendAction(embed.embed($0)) }
      }
    )
  }

  /// The presented child's store, its actions wrapped in `.presented` and embedded by the case
  /// `access` makes; `action` names that case, for the store's cache.
  @inlinable
  func scopePresented<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action: ScopeAction,
    access: () -> CaseAccess<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    _scope(
      state: toChildState, action: action, isPresentation: true,
      toChild: { Self.presentedChild(at: toChildState) },
      sending: { [sendAction] in
        // The presentation case resolves to its generated accessor once; `.presented` is added
        // around each action, instead of going through the two-case key path every time.
        let embed = access()
        return { sendAction(embed.embed(.presented($0))) }
      }
    )
  }

  /// The child's store, its actions embedded by the case `access` makes; `action` names that
  /// case, for the store's cache.
  @inlinable
  func scopeChild<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action: ScopeAction,
    access: () -> CaseAccess<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    _scope(
      state: toChildState,
      action: action,
      toChild: { Self.scopedChild(at: toChildState) },
      sending: { [sendAction] in
        let embed = access()
        return { sendAction(embed.embed($0)) }
      }
    )
  }

  /// The rows' stores, their actions embedded by the case `access` makes; `action` names that
  /// case, for the store's cache.
  @inlinable
  func scopeRows<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action: ScopeAction,
    access: @escaping () -> CaseAccess<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> StoreCollection<ElementID, ElementState, ElementAction> {
    _scope(
      rows: toElements,
      action: action,
      ids: state[keyPath: toElements].ids,
      toIDs: { Self.ids(at: toElements) },
      // Made here, where the ids' type is known: run generic, each comparison of two ids
      // allocated, about four allocations a kept row for a row added and removed.
      removedIDs: { idsRemoved(from: $0, to: $1) },
      toRow: { Self.row($0, at: toElements) },
      sending: { [sendAction] id in
        let embed = access()
        return { sendAction(embed.embed(.element(id: id, action: $0))) }
      }
    )
  }
}
