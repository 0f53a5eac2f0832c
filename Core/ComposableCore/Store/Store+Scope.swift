import OrderedCollections

extension Store {
  /// A store for optional child state while it is present, `nil` while it is absent:
  /// `store.scope(state: \.destination?.alert, action: \.destination.alert)`. While the child
  /// exists every call returns the same store; after it goes away that store keeps showing its
  /// last state, so a screen being dismissed can still draw it, and the next presentation gets
  /// a new one.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scopeOptional(state: toChildState, action: ScopeAction(toChildAction)) {
      CaseAccess(toChildAction)
    }
  }

  // Inlinable, so that the reader is made where the feature's types are known: the store of an
  // optional child watches its parent after every action, to see whether the child is still
  // there. Nonisolated, as `presentedChild`.
  /// Reads the optional child at `keyPath` where it is stored, when the path is stored
  /// properties or a tracked property of observable state, instead of applying the key path
  /// (about 840 instructions a level after each action); the child found is copied out.
  @inlinable
  nonisolated static func optionalChild<ChildState>(
    at keyPath: KeyPath<State, ChildState?>
  ) -> ChildReader<State, ChildState> {
    typealias Path = StatePath<State, ChildState?>
    guard let offset = Path.storedOffset(of: keyPath) else {
      // One case of a presented enum state (`\.destination?.detail`), read through its storage.
      if let storage = State.self as? any _PresentationStorage.Type,
        let reader = storage._$presentedCase(keyPath, child: ChildState.self)
          as? ChildReader<State, ChildState>
      {
        return reader
      }
      return ChildReader(read: { $0[keyPath: keyPath] })
    }
    return ChildReader(
      read: { state in Path.lend(at: offset, in: state) { $0 } },
      visit: { state, body in
        Path.lend(at: offset, in: state) {
          guard var child = $0 else { return false }
          body(&child)
          return true
        }
      }
    )
  }

  /// The optional or presented child's store while `toChildState` finds it. `toChild` and
  /// `sending` make the child's state reader and send function, only when a store is made, as in
  /// the non-optional `_scope`.
  @usableFromInline
  func _scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: ScopeAction,
    isPresentation: Bool,
    toChild: () -> ChildReader<State, ChildState>,
    sending: () -> (consuming ChildAction) -> EffectTasks?
  ) -> Store<ChildState, ChildAction>? {
    // A presentation scope is told apart from the plain optional scope over the same paths,
    // whose actions are the presentation actions themselves.
    let id = ScopeID(state: toChildState, action: toChildAction, isPresentation: isPresentation)
    guard let initial = state[keyPath: toChildState] else {
      transientChildren[id] = nil
      return nil
    }
    return transientChild(at: id, initial: initial) {
      typealias Resolved = (ChildReader<State, ChildState>, (consuming ChildAction) -> EffectTasks?)
      if let resolved = resolvedScopes[id] as? Resolved { return resolved }
      let resolved: Resolved = (toChild(), sending())
      if resolvedScopes.count == Self.resolvedScopesLimit { resolvedScopes.removeAll() }
      resolvedScopes[id] = resolved
      return resolved
    }
  }

  /// How many scopes' readers and send functions a store keeps (`resolvedScopes`).
  static var resolvedScopesLimit: Int { 32 }

  // Inlinable, so that the reader is specialised for the feature's types: a child store runs it
  // after every action while its child is presented. Nonisolated, as it touches no store: a
  // main-actor closure made here would check the executor on each call.
  /// Reads the presented child at `keyPath` from the `PresentationState` stored behind it, when
  /// the state names that storage (``_PresentationStorage``): a presented property is computed,
  /// and applying a key path through a getter costs about 900 instructions each time. A child
  /// presented from a plain optional is read as an optional child is.
  @inlinable
  nonisolated static func presentedChild<ChildState>(
    at keyPath: KeyPath<State, ChildState?>
  ) -> ChildReader<State, ChildState> {
    typealias Storage = StatePath<State, PresentationState<ChildState>>
    guard let path = PresentationState<ChildState>.storage(behind: keyPath, in: State.self),
      let offset = Storage.storedOffset(of: path)
    else { return optionalChild(at: keyPath) }
    return ChildReader(
      read: { state in Storage.lend(at: offset, in: state) { $0.presented } },
      // The child is lent where it is, in its box.
      visit: { state, body in
        Storage.lend(at: offset, in: state) {
          PresentationState.withPresentedBox(in: &$0) { body(&$0.value) } != nil
        }
      }
    )
  }

  // Inlinable so that the closure wrapping each action in `.presented` is made where the child's
  // action type is known: made in generic code, it boxed every action it wrapped. Every scope
  // here is inlinable for the same reason.
  /// A store for presented child state while it is presented, `nil` otherwise:
  /// `store.scope(state: \.destination, action: \.destination)`, whose actions reach the parent
  /// wrapped in `.presented`. The same store while the child stays presented, as above.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    scopePresented(state: toChildState, action: ScopeAction(toPresentationAction)) {
      CaseAccess(toPresentationAction)
    }
  }

  /// A store for a child feature: it sees the child's part of this store's state, and its
  /// actions go through this store's reducer, embedded by `action`. Every call with the same
  /// paths returns the same store.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scopeChild(state: toChildState, action: ScopeAction(toChildAction)) {
      CaseAccess(toChildAction)
    }
  }

  // Inlinable, so that the reader is made where the feature's types are known: an observed
  // child store runs it after every action. Nonisolated, as `presentedChild`.
  /// Reads the child at `keyPath` where it is stored, when the path is stored properties or a
  /// tracked property of observable state (whose storage `@ObservableState` names), instead of
  /// applying the key path: applied by the core, which runs unspecialised, each read looked up
  /// type metadata and copied the child out, about 1,300 instructions a level after each action.
  @inlinable
  nonisolated static func scopedChild<ChildState>(
    at keyPath: KeyPath<State, ChildState>
  ) -> ChildReader<State, ChildState> {
    typealias Path = StatePath<State, ChildState>
    guard let offset = Path.storedOffset(of: keyPath) else {
      return ChildReader(read: { $0[keyPath: keyPath] })
    }
    return ChildReader(
      read: { state in Path.lend(at: offset, in: state) { $0 } },
      visit: { state, body in
        Path.lend(at: offset, in: state, body)
        return true
      }
    )
  }

  /// `toChild` makes the child's state reader and `sending` its send function, only when a store
  /// is made: resolving a case path is not free, and a renderer scopes on every drawing.
  @usableFromInline
  func _scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: ScopeAction,
    toChild: () -> ChildReader<State, ChildState>,
    sending: () -> (consuming ChildAction) -> EffectTasks?
  ) -> Store<ChildState, ChildAction> {
    let id = ScopeID(state: toChildState, action: toChildAction)
    if let child = children[id] as? Store<ChildState, ChildAction> { return child }
    let child = Store<ChildState, ChildAction>(
      core: ScopedCore<State, Action, ChildState, ChildAction>(base: core, toChild: toChild()),
      send: sending()
    )
    children[id] = child
    return child
  }

  // Inlinable, so that what a kept row's store and its collection run after each action is
  // made where the types are known: made in generic code, every read looked up the metadata of
  // the collection and of an optional element.
  /// One store per element of an identified collection, in the collection's order:
  /// `for row in store.scope(state: \.rows, action: \.rows) { … }`. An element's store is the
  /// same while the element exists.
  @inlinable
  public func scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    state toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> StoreCollection<ElementID, ElementState, ElementAction> {
    scopeRows(state: toElements, action: ScopeAction(toElementAction)) {
      CaseAccess(toElementAction)
    }
  }

  /// The stores of the rows `ids` names. `toIDs` makes the reader of the collection's ids,
  /// `removedIDs` finds the ids an action removed, `toRow` makes a row's reader and `sending`
  /// its send function, the last two when a row's store is made.
  @usableFromInline
  func _scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    rows toElements: AnyKeyPath,
    action toElementAction: ScopeAction,
    ids: OrderedSet<ElementID>,
    toIDs: @escaping () -> (State) -> OrderedSet<ElementID>,
    removedIDs: @escaping (OrderedSet<ElementID>, OrderedSet<ElementID>) -> [ElementID],
    toRow: @escaping (ElementID) -> ChildReader<State, ElementState>,
    sending: @escaping (ElementID) -> (consuming ElementAction) -> EffectTasks?
  ) -> StoreCollection<ElementID, ElementState, ElementAction> {
    let collection = ScopeID(state: toElements, action: toElementAction)
    // The collection's kept rows are looked up once here, by the two key paths, and a row's kept
    // store then by its id alone, where the collection is indexed (``StoreCollection``): looked
    // up by the paths and the id, each row a redraw asks for hashed and compared both key paths
    // and cast the store it found, about 8,600 instructions.
    let listed: KeptRows<ElementID, ElementState, ElementAction>? = listedRows(of: collection)
    // The collection keeps its store alive: it may be all that holds a store scoped on the fly
    // (`Array(store.scope(state: { $0 }, action: { $0 }).scope(\.rows, action: \.rows))`).
    return StoreCollection(ids: ids, kept: listed) { [self] id in
      // No store of the row when this collection was made, or none left: the kept rows listed
      // now, which may have one since.
      let kept: KeptRows<ElementID, ElementState, ElementAction> = keptRows(
        of: collection, toIDs: toIDs, removedIDs: removedIDs)
      if let store = kept.stores[id] { return store }
      return rowStore(id, in: kept, of: collection, toRow: toRow, sending: sending)
    }
  }

  // Inlinable, as the readers below: what kept rows run after each action is made where the
  // types are known, and finds the collection where it is stored when it can. Through the key
  // path each read cost about 1,000 instructions, and copied the collection out.
  /// Reads the ids of the collection at `toElements` in the state.
  @inlinable
  nonisolated static func ids<ElementID: Hashable, ElementState>(
    at toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>
  ) -> (State) -> OrderedSet<ElementID> {
    typealias Path = StatePath<State, IdentifiedArray<ElementID, ElementState>>
    guard let offset = Path.storedOffset(of: toElements) else {
      return { $0[keyPath: toElements].ids }
    }
    return { Path.lend(at: offset, in: $0) { $0.ids } }
  }

  /// Reads the element `id` of the collection at `toElements`; in place, a pointer into the
  /// collection's storage, reached where the collection is stored when the path is stored
  /// properties or a tracked property of observable state.
  @inlinable
  nonisolated static func row<ElementID: Hashable, ElementState>(
    _ id: ElementID,
    at toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>
  ) -> ChildReader<State, ElementState> {
    typealias Path = StatePath<State, IdentifiedArray<ElementID, ElementState>>
    let row = RowPlace(id)
    guard let offset = Path.storedOffset(of: toElements) else {
      return ChildReader(
        read: { state in
          var rows = state[keyPath: toElements]
          return row.element(of: &rows)
        },
        visit: { state, body in
          var rows = state[keyPath: toElements]
          return row.visit(&rows, body)
        }
      )
    }
    return ChildReader(
      read: { state in Path.lend(at: offset, in: state) { row.element(of: &$0) } },
      visit: { state, body in Path.lend(at: offset, in: state) { row.visit(&$0, body) } }
    )
  }

  /// A new store of the element `elementID`, which the collection holds, kept in `kept` while the
  /// element exists.
  private func rowStore<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    _ elementID: ElementID,
    in kept: KeptRows<ElementID, ElementState, ElementAction>,
    of collection: ScopeID,
    toRow: (ElementID) -> ChildReader<State, ElementState>,
    sending: (ElementID) -> (consuming ElementAction) -> EffectTasks?
  ) -> Store<ElementState, ElementAction> {
    let reader = toRow(elementID)
    let rowCore = TransientCore<State, Action, ElementState, ElementAction>(
      base: core, initial: reader.read(core.state)!, toChild: reader, watchesFromStart: false
    ) { [weak self, weak kept] gone in
      // Only this row's store: a row added again under the same id has a store of its own.
      // Not holding `kept`, which holds the row's store.
      guard let kept, kept.stores[elementID]?.core === gone else { return }
      kept.stores[elementID] = nil
      guard let self, kept.stores.isEmpty, let entry = keptRows[collection], entry.rows === kept
      else { return }
      core.removeObserver(entry.observer)
      keptRows[collection] = nil
    }
    let store = Store<ElementState, ElementAction>(core: rowCore, send: sending(elementID))
    kept.stores[elementID] = store
    return store
  }

  /// What keeps the row stores of a collection and finds those whose rows went away: one
  /// observer for the collection, made with its first kept row.
  private func keptRows<ElementID: Hashable, ElementState, ElementAction>(
    of collection: ScopeID,
    toIDs: () -> (State) -> OrderedSet<ElementID>,
    removedIDs: @escaping (OrderedSet<ElementID>, OrderedSet<ElementID>) -> [ElementID]
  ) -> KeptRows<ElementID, ElementState, ElementAction> {
    typealias Kept = KeptRows<ElementID, ElementState, ElementAction>
    if let kept: Kept = listedRows(of: collection) { return kept }
    let ids = toIDs()
    let kept = Kept(ids: ids(core.state), removedIDs: removedIDs)
    let observer = core.addObserver { kept.update(ids: ids($0)) }
    keptRows[collection] = (kept, observer)
    return kept
  }

  /// The kept rows of a collection, while it has any.
  private func listedRows<ElementID: Hashable, ElementState, ElementAction>(
    of collection: ScopeID
  ) -> KeptRows<ElementID, ElementState, ElementAction>? {
    keptRows[collection]?.rows as? KeptRows<ElementID, ElementState, ElementAction>
  }

  /// The cached store of an optional or presented child: the same store while the reader `make`
  /// returns finds it, showing its last state once it is gone, released then. `make` (the reader
  /// and the send function) is called only when a store is made, as in `_scope`.
  private func transientChild<ChildState, ChildAction>(
    at id: ScopeID,
    initial: ChildState,
    make: () -> (ChildReader<State, ChildState>, (consuming ChildAction) -> EffectTasks?)
  ) -> Store<ChildState, ChildAction> {
    if let child = transientChildren[id] as? Store<ChildState, ChildAction> { return child }
    let (toChild, send) = make()
    let core = TransientCore<State, Action, ChildState, ChildAction>(
      base: core, initial: initial, toChild: toChild, watchesFromStart: true
    ) { [weak self] gone in
      // Only this child's store: a later one at the same place stays.
      guard let self, (transientChildren[id] as? Store<ChildState, ChildAction>)?.core === gone
      else { return }
      transientChildren[id] = nil
    }
    let child = Store<ChildState, ChildAction>(core: core, send: send)
    transientChildren[id] = child
    return child
  }
}
