import Dependencies
import OrderedCollections

/// The runtime of a feature: holds its state, runs its reducer for each action, and runs the
/// effects the reducer returns.
///
/// A renderer reads state through the store (`store.count` for `@ObservableState` state, or
/// ``state``) inside `withObservationTracking` and redraws when what it read changes; a consumer
/// without observation awaits `states`. `scope(state:action:)` hands a child feature a store
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
  /// Makes the observer that tells observers when the whole state is replaced by another value;
  /// `nil` when `State` is not `ObservableState`.
  private let identityObserver: ((State, @escaping @MainActor () -> Void) -> CoreObserver<State>)?
  /// `\Store.state`, made once: a key path into a generic class is built at run time, with
  /// allocations, each time its literal is evaluated.
  private let stateKeyPath: KeyPath<Store, State>
  /// The core observer that checks identity after each action, once needed.
  private var coreObserver: Int?
  /// Stores of children that exist as long as this store does.
  var children: [ScopeID: AnyObject] = [:]
  /// Stores of optional and presented children; each one's core lets go of it here when its
  /// child state is gone after an action. (Row stores are kept by their collection, in
  /// `keptRows`.)
  var transientChildren: [ScopeID: AnyObject] = [:]
  /// For each collection with kept row stores, what keeps them and finds the rows that went away
  /// (a ``KeptRows``), and its observer on this store's core.
  var keptRows: [ScopeID: (rows: AnyObject, observer: Int)] = [:]
  /// The reader and send function made for each optional or presented child's scope, kept when
  /// the child goes: the next presentation's store uses them again rather than resolving its
  /// paths anew, tens of thousands of instructions (the runtime makes key paths to compare with).
  /// Only this store's; a few paths at most, as a screen scopes its children from fixed key paths,
  /// and forgotten all at once if key paths with arguments make more.
  var resolvedScopes: [ScopeID: Any] = [:]

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
      self.identityObserver = Self.identityObserver(of: observable)
    } else {
      self.identityObserver = nil
    }
    self.stateKeyPath = \Store.state
    #if DEBUG
      Logger.shared.log("\(Self.self).init")
    #endif
  }

  // Opened once per store, and the observer made for the opened type, then cast to observe
  // `State` (the same type): after each action it reads `_$id` where the state is. Casting the
  // state to the opened type copied the whole state (about 600 instructions a send while
  // observed); a function cast to take `State` went through two reabstraction thunks.
  private static func identityObserver<Observed: ObservableState>(
    of _: Observed.Type
  ) -> (State, @escaping @MainActor () -> Void) -> CoreObserver<State> {
    { state, replaced in
      IdentityObserver<Observed>(of: state as! Observed, replaced: replaced)
        as! CoreObserver<State>
    }
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
    if identityObserver != nil { accessIdentity() }
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

  private func accessIdentity() {
    startObservingCore()
    registrar.access(self, keyPath: stateKeyPath)
  }

  /// After each action: tells observers when the state was replaced by another value.
  private func startObservingCore() {
    guard coreObserver == nil, let identityObserver else { return }
    let observer = identityObserver(core.state) { [weak self] in self?.stateWasReplaced() }
    coreObserver = core.addObserver(observer)
  }

  private func stateWasReplaced() {
    registrar.withMutation(of: self, keyPath: stateKeyPath) {}
  }
}

extension Store: Observable {}

/// A store of any feature, written `StoreOf<Feature>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>
