import Dependencies
import OrderedCollections

/// The runtime of a feature: holds its state, runs its reducer for each action, and runs the
/// effects the reducer returns.
///
/// A renderer reads state through the store (`store.count` for `@ObservableState` state, or
/// ``state``) inside `withObservationTracking` and redraws when what it read changes; a consumer
/// without observation awaits ``states``. ``scope(state:action:)`` hands a child feature a store
/// of its own, the same one each time while the child exists.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  @usableFromInline
  package let core: any StoreCore<State, Action>
  /// Sends an action to the root store, embedding it on the way. Made where the feature's types
  /// are known (`Store.init` and `scope` are inlinable), so a child store's action is embedded
  /// and handed to its parent's function by specialised code, with no generic hop per level.
  // The action is handed over, not lent, all the way up: each level moves it into the case that
  // wraps it instead of copying it and releasing the copy after the send, a retain and a release
  // a level for a payload holding references (every presentation level's `.presented` box).
  @usableFromInline
  let sendAction: (consuming Action) -> EffectTasks?

  private let registrar = ObservationRegistrar()
  /// The identity of observable state, read through a pointer to it, so that replacing the whole
  /// state tells observers; `nil` when `State` is not `ObservableState`.
  private let identity: ((UnsafeRawPointer) -> ObservableStateID)?
  /// `\Store.state`, made once: a key path into a generic class is built at run time, with
  /// allocations, each time its literal is evaluated.
  private let stateKeyPath: KeyPath<Store, State>
  /// The core observer that checks identity after each action, once needed.
  private var coreObserver: Int?
  /// Stores of children that exist as long as this store does.
  private var children: [ScopeID: AnyObject] = [:]
  /// Stores of optional and presented children; each one's core lets go of it here when its
  /// child state is gone after an action. (Row stores are kept by their collection, in
  /// `keptRows`.)
  private var transientChildren: [ScopeID: AnyObject] = [:]
  /// For each collection with kept row stores, what keeps them and finds the rows that went away
  /// (a ``KeptRows``), and its observer on this store's core.
  private var keptRows: [ScopeID: (rows: AnyObject, observer: Int)] = [:]
  /// The reader and send function made for each optional or presented child's scope, kept when
  /// the child goes: the next presentation's store uses them again rather than resolving its
  /// paths anew, tens of thousands of instructions (the runtime makes key paths to compare with).
  /// Only this store's; a few paths at most, as a screen scopes its children from fixed key paths,
  /// and forgotten all at once if key paths with arguments make more.
  private var resolvedScopes: [ScopeID: Any] = [:]

  // `send` is not optional: a function passed through an optional is re-abstracted into the most
  // general form and back, two thunks on every send at every level.
  @usableFromInline
  package init(
    core: any StoreCore<State, Action>,
    send: @escaping (consuming Action) -> EffectTasks?
  ) {
    self.core = core
    self.sendAction = send
    // Not `Optional.map`: a function passed through it is re-abstracted, and each call after an
    // action went through a thunk.
    if let observable = State.self as? any ObservableState.Type {
      self.identity = Self.identity(of: observable)
    } else {
      self.identity = nil
    }
    self.stateKeyPath = \Store.state
    #if DEBUG
      Logger.shared.log("\(Self.self).init")
    #endif
  }

  // Opened once per store, so that checking the identity after an action reads the state where
  // it is, through its type's own `_$id(at:)`, specialised for it: a cast from `State` to the
  // opened type copied the whole state through a dynamic cast (about 600 instructions a send
  // while observed), and reading `_$id` through the opened type copied it too (about 490).
  private static func identity<Observed: ObservableState>(
    of _: Observed.Type
  ) -> (UnsafeRawPointer) -> ObservableStateID {
    { Observed._$id(at: $0) }
  }

  isolated deinit {
    #if DEBUG
      Logger.shared.log("\(Self.self).deinit")
    #endif
    if let coreObserver { core.removeObserver(coreObserver) }
    for kept in keptRows.values { core.removeObserver(kept.observer) }
    core.storeIsGone()
  }

  // Inlinable, so that the reducer runs through a closure made where its type is known, and is
  // specialised for it from the root down (see `RootCore.run`).
  /// Makes a store for a feature, optionally overriding dependencies for the reducer and every
  /// effect it starts.
  @inlinable
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reducer, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      (initialState(), ReducerTree.making(kept: true, reducer), DependencyValues._current)
    }
    let core = RootCore<R>(
      initialState: state, dependencies: dependencies,
      run: { reducer.reduce(into: &$0, action: $1) })
    self.init(core: core, send: { core.send($0) })
  }

  /// The current state. Reading it inside observation tracking observes the whole value being
  /// replaced; for `@ObservableState` state, each field read is observed on its own.
  public var state: State {
    if identity != nil { accessIdentity() }
    return core.state
  }

  /// Calls `body` with the current state: `store.withState(\.count)`.
  public func withState<Value>(_ body: (State) -> Value) -> Value {
    body(state)
  }

  /// A field of observable state, read through the store: `store.count`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value
  where State: ObservableState {
    state[keyPath: keyPath]
  }

  /// Sends an action: the reducer runs now, before `send` returns, and the returned task tracks
  /// the effects it started.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    StoreTask(effects: sendAction(action))
  }

  /// Sends the action at a case key path whose case carries no value: `store.send(\.refresh)`,
  /// `store.send(\.view.saveButtonTapped)`.
  @discardableResult
  public func send(_ action: CaseKeyPath<Action, Void>) -> StoreTask {
    send(action())
  }

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
      read: { state in withUnsafePointer(to: state) { Path.child(at: offset, in: $0).pointee } },
      visit: { state, body in
        guard let child = Path.child(at: offset, in: state).pointee else { return false }
        withUnsafePointer(to: child) { body(UnsafeRawPointer($0)) }
        return true
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
      read: { state in
        withUnsafePointer(to: state) { Storage.child(at: offset, in: $0).pointee.presented }
      },
      // The child is handed over where it is, in its box.
      visit: { state, body in
        PresentationState.withPresentedBox(at: Storage.child(at: offset, in: state)) { box in
          withUnsafeMutablePointer(to: &box.value) { body(UnsafeRawPointer($0)) }
        } != nil
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
      read: { state in withUnsafePointer(to: state) { Path.child(at: offset, in: $0).pointee } },
      visit: { state, body in
        body(UnsafeRawPointer(Path.child(at: offset, in: state)))
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
    toIDs: @escaping () -> (UnsafeRawPointer) -> OrderedSet<ElementID>,
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
    return StoreCollection(ids: ids, kept: listed) { [unowned self] id in
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
  /// Reads the ids of the collection at `toElements`, from a pointer to the state.
  @inlinable
  nonisolated static func ids<ElementID: Hashable, ElementState>(
    at toElements: KeyPath<State, IdentifiedArray<ElementID, ElementState>>
  ) -> (UnsafeRawPointer) -> OrderedSet<ElementID> {
    typealias Path = StatePath<State, IdentifiedArray<ElementID, ElementState>>
    guard let offset = Path.storedOffset(of: toElements) else {
      return { $0.assumingMemoryBound(to: State.self).pointee[keyPath: toElements].ids }
    }
    return { Path.child(at: offset, in: $0).pointee.ids }
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
          withUnsafePointer(to: state[keyPath: toElements]) { row.element(of: $0) }
        },
        visit: { state, body in
          let rows = state.assumingMemoryBound(to: State.self).pointee[keyPath: toElements]
          return withUnsafePointer(to: rows) { row.visit($0, body) }
        }
      )
    }
    return ChildReader(
      read: { state in
        withUnsafePointer(to: state) { row.element(of: Path.child(at: offset, in: $0)) }
      },
      visit: { state, body in row.visit(Path.child(at: offset, in: state), body) }
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
    toIDs: () -> (UnsafeRawPointer) -> OrderedSet<ElementID>,
    removedIDs: @escaping (OrderedSet<ElementID>, OrderedSet<ElementID>) -> [ElementID]
  ) -> KeptRows<ElementID, ElementState, ElementAction> {
    typealias Kept = KeptRows<ElementID, ElementState, ElementAction>
    if let kept: Kept = listedRows(of: collection) { return kept }
    let ids = toIDs()
    let kept = StoreObservers.withPointer(to: core.state) {
      Kept(ids: ids($0), removedIDs: removedIDs)
    }
    let observer = core.addObserver(pointer: { kept.update(ids: ids($0)) })
    keptRows[collection] = (kept, observer)
    return kept
  }

  /// The kept rows of a collection, while it has any.
  private func listedRows<ElementID: Hashable, ElementState, ElementAction>(
    of collection: ScopeID
  ) -> KeptRows<ElementID, ElementState, ElementAction>? {
    keptRows[collection]?.rows as? KeptRows<ElementID, ElementState, ElementAction>
  }

  // MARK: Observation and cached children

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

  private func accessIdentity() {
    startObservingCore()
    registrar.access(self, keyPath: stateKeyPath)
  }

  /// After each action: tells observers when the state was replaced by another value.
  private func startObservingCore() {
    guard coreObserver == nil, let identity else { return }
    let observer = StoreObservers.withPointer(to: core.state) {
      IdentityObserver(identity: identity, of: $0) { [weak self] in self?.stateWasReplaced() }
    }
    coreObserver = core.addObserver(observer)
  }

  private func stateWasReplaced() {
    registrar.withMutation(of: self, keyPath: stateKeyPath) {}
  }

  /// Every state the store goes through, starting with the current one; a new value arrives once
  /// after each `send` has been fully processed. A slow reader only sees the newest state.
  @inlinable
  public var states: StoreStates<State> {
    states(removingDuplicates: nil)
  }

  // Inlinable, so that the observer below, which runs after every action while the stream lasts,
  // is specialised where the state's type is known: made in generic code, each call looked up the
  // generic metadata of the state and of the stream's elements, about 1,300 instructions an
  // observed store after each action, most of what a list with 50 observed rows paid per row.
  /// The states of the store, skipping a state the predicate calls a duplicate of the one
  /// delivered before it.
  @inlinable
  public func states(
    removingDuplicates isDuplicate: ((State, State) -> Bool)?
  ) -> StoreStates<State> {
    let (stream, continuation) = AsyncStream<UncheckedSendable<State>>.makeStream(
      bufferingPolicy: .bufferingNewest(1)
    )
    let core = self.core
    var last = core.state
    continuation.yield(UncheckedSendable(last))
    let id = core.addObserver { state in
      let state = copy state
      if let isDuplicate, isDuplicate(last, state) { return }
      last = state
      continuation.yield(UncheckedSendable(state))
    }
    continuation.onTermination = { [weak core] _ in
      Task { @MainActor in core?.removeObserver(id) }
    }
    return StoreStates(base: stream)
  }
}

extension Store: Observable {}

extension Store where State: Equatable {
  /// Every distinct state the store goes through, starting with the current one.
  @inlinable
  public var states: StoreStates<State> {
    states(removingDuplicates: { $0 == $1 })
  }
}

/// The states of a store, as an asynchronous sequence for a renderer on the main actor.
///
/// States are values read on the main actor; the sequence hands them to the task iterating it
/// without copying them through another isolation domain, so `State` need not be `Sendable`.
public struct StoreStates<State>: AsyncSequence {
  /// Each element is a state of the store.
  public typealias Element = State
  /// Observing a store never fails.
  public typealias Failure = Never

  @usableFromInline let base: AsyncStream<UncheckedSendable<State>>

  @inlinable
  init(base: AsyncStream<UncheckedSendable<State>>) {
    self.base = base
  }

  /// Starts iterating.
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator())
  }

  /// Iterates the states of a store.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<UncheckedSendable<State>>.Iterator

    /// The next state, or `nil` once iteration has been cancelled.
    public mutating func next() async -> State? {
      await base.next()?.wrappedValue
    }

    /// The next state, delivered in the caller's isolation.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> State? {
      await base.next(isolation: actor)?.wrappedValue
    }
  }
}

/// The stores of the elements of an identified collection, one per id, in the collection's order
/// when it was scoped.
@MainActor
public struct StoreCollection<ID: Hashable & Sendable, State, Action>:
  @MainActor RandomAccessCollection
{
  // The collection's own ordered ids, shared rather than copied into an array on every scope.
  @usableFromInline let ids: OrderedSet<ID>
  /// The collection's kept row stores when it was scoped, if any.
  @usableFromInline let kept: KeptRows<ID, State, Action>?
  /// Any other row's store: the one kept since, or a new one.
  @usableFromInline let store: (ID) -> Store<State, Action>

  @usableFromInline
  init(
    ids: OrderedSet<ID>, kept: KeptRows<ID, State, Action>?,
    store: @escaping (ID) -> Store<State, Action>
  ) {
    self.ids = ids
    self.kept = kept
    self.store = store
  }

  /// The first position.
  public var startIndex: Int { 0 }
  /// The position after the last element.
  public var endIndex: Int { ids.count }

  // Inlinable, so that a kept row's store, what a screen drawn again asks for, is found by code
  // specialised for the row's types.
  /// The store of the element at `position`.
  @inlinable
  public subscript(position: Int) -> Store<State, Action> {
    let id = ids[position]
    if let store = kept?.stores[id] { return store }
    return store(id)
  }
}

/// A store of any feature, written `StoreOf<Feature>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// Where a store's child store or collection of row stores is: the paths it was scoped with, and
/// whether it is a presentation's. Not nested in the generic `Store`: a type nested there has
/// generic metadata, looked up on every `scope` call, and its dictionaries ran unspecialised.
private struct ScopeID: Hashable {
  let state: AnyKeyPath
  let action: ScopeAction
  var isPresentation = false
}

/// The case a scoped store's actions go to, as the store's cache knows it: the case key path
/// written, or the key path into `AllCasePaths` that `action: \.child` resolves to for a
/// `@CasePathable` action (`CasePathableForms.swift`). Both spellings of one case name one store.
/// A member is compared as itself, and made into the case key path it stands for only to meet
/// one written as such: a renderer asks for its scopes on every drawing, and making that key path
/// (the runtime instantiates it) cost more than the rest of the lookup.
@usableFromInline
struct ScopeAction: Hashable {
  @usableFromInline let path: AnyKeyPath
  /// For a member of `AllCasePaths`, what makes the case key path it stands for.
  @usableFromInline let member: (any _CaseKeyPathMaking.Type)?

  @inlinable
  init<Root, Value>(_ keyPath: CaseKeyPath<Root, Value>) {
    self.path = keyPath
    self.member = nil
  }

  @inlinable
  init<Root: CasePathable, Value>(member: _CasePathMember<Root, Value>) {
    self.path = member
    self.member = _CaseKeyPathMaker<Root, Value>.self
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.member, rhs.member) {
    case (nil, nil), (.some, .some): lhs.path == rhs.path
    case (let member?, nil): member.caseKeyPath(of: lhs.path) == rhs.path
    case (nil, let member?): lhs.path == member.caseKeyPath(of: rhs.path)
    }
  }

  // Not hashed: a member and the case key path it stands for must hash alike, which only making
  // that key path would tell. The state path, hashed beside it, tells scopes apart.
  @usableFromInline
  func hash(into hasher: inout Hasher) {}
}

/// Makes the case key path a member of `AllCasePaths` stands for, for ``ScopeAction``.
@usableFromInline
protocol _CaseKeyPathMaking {
  static func caseKeyPath(of member: AnyKeyPath) -> AnyKeyPath
}

@usableFromInline
enum _CaseKeyPathMaker<Root: CasePathable, Value>: _CaseKeyPathMaking {
  @usableFromInline
  static func caseKeyPath(of member: AnyKeyPath) -> AnyKeyPath {
    guard let member = member as? _CasePathMember<Root, Value> else { return member }
    return _caseKeyPath(member)
  }
}
