import Dependencies

/// What a ``Store`` needs from whatever runs it: the root runtime, or a scope of another store.
@MainActor
@usableFromInline
package protocol StoreCore<State, Action>: AnyObject, Sendable {
  associatedtype State
  associatedtype Action
  var state: State { get }
  func send(_ action: Action) -> Task<Void, Never>?
  func addObserver(_ observer: @escaping @MainActor () -> Void) -> Int
  func removeObserver(_ id: Int)
}

/// The runtime of a feature: holds its state, runs its reducer for each action, and runs the
/// effects the reducer returns.
///
/// A renderer reads ``state``, sends actions with ``send(_:)``, and awaits ``states`` to redraw
/// when something changed. ``scope(state:action:)`` hands a child feature a store of its own.
@MainActor
public final class Store<State, Action> {
  @usableFromInline
  package let core: any StoreCore<State, Action>

  @usableFromInline
  package init(core: any StoreCore<State, Action>) {
    self.core = core
  }

  /// Makes a store for a feature, optionally overriding dependencies for the reducer and every
  /// effect it starts.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reducer, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      (initialState(), reducer(), DependencyValues._current)
    }
    self.init(core: RootCore(initialState: state, reducer: reducer, dependencies: dependencies))
  }

  /// The current state.
  public var state: State {
    core.state
  }

  /// Sends an action: the reducer runs now, before `send` returns, and the returned task tracks
  /// the effects it started.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    StoreTask(rawValue: core.send(action))
  }

  /// Sends the action at a case key path whose case carries no value: `store.send(\.refresh)`,
  /// `store.send(\.view.saveButtonTapped)`.
  @discardableResult
  public func send(_ action: CaseKeyPath<Action, Void>) -> StoreTask {
    send(action())
  }

  /// A store for optional child state while it is present, `nil` while it is absent:
  /// `store.scope(state: \.destination?.alert, action: \.destination.alert)`. After the child
  /// goes away, the store keeps showing its last state, so a screen being dismissed can still
  /// draw it.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard let initial = core.state[keyPath: toChildState] else { return nil }
    let last = LastPresented(initial)
    let embed = CaseAccess(toChildAction)
    return Store<ChildState, ChildAction>(
      core: ScopedCore(
        base: core,
        toState: { parent in
          if let current = parent[keyPath: toChildState] { last.value = current }
          return last.value
        },
        fromAction: { embed.embed($0) }
      )
    )
  }

  // Inlinable so that the closures a child store calls on every action are specialised.
  /// A store for a child feature: it sees the child's part of this store's state, and its
  /// actions go through this store's reducer, embedded by `action`.
  @inlinable
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let embed = CaseAccess(toChildAction)
    return Store<ChildState, ChildAction>(
      core: ScopedCore(
        base: core,
        toState: { $0[keyPath: toChildState] },
        fromAction: { embed.embed($0) }
      )
    )
  }

  /// Every state the store goes through, starting with the current one; a new value arrives once
  /// after each `send` has been fully processed. A slow reader only sees the newest state.
  public var states: StoreStates<State> {
    states(removingDuplicates: nil)
  }

  /// The states of the store, skipping a state the predicate calls a duplicate of the one
  /// delivered before it.
  public func states(
    removingDuplicates isDuplicate: ((State, State) -> Bool)?
  ) -> StoreStates<State> {
    let (stream, continuation) = AsyncStream<UncheckedSendable<State>>.makeStream(
      bufferingPolicy: .bufferingNewest(1)
    )
    let core = self.core
    var last = core.state
    continuation.yield(UncheckedSendable(last))
    let id = core.addObserver {
      let state = core.state
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

extension Store where State: Equatable {
  /// Every distinct state the store goes through, starting with the current one.
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

  let base: AsyncStream<UncheckedSendable<State>>

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

/// The latest state an optional scope saw present; only touched on the main actor, through the
/// store that owns it.
final class LastPresented<Value> {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// A store of any feature, written `StoreOf<Feature>`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

@MainActor
@usableFromInline
final class ScopedCore<ParentState, ParentAction, State, Action>: StoreCore {
  let base: any StoreCore<ParentState, ParentAction>
  let toState: (ParentState) -> State
  let fromAction: (Action) -> ParentAction

  @usableFromInline
  init(
    base: any StoreCore<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.base = base
    self.toState = toState
    self.fromAction = fromAction
  }

  @usableFromInline
  var state: State {
    toState(base.state)
  }

  @usableFromInline
  func send(_ action: Action) -> Task<Void, Never>? {
    base.send(fromAction(action))
  }

  @usableFromInline
  func addObserver(_ observer: @escaping @MainActor () -> Void) -> Int {
    base.addObserver(observer)
  }

  @usableFromInline
  func removeObserver(_ id: Int) {
    base.removeObserver(id)
  }
}
