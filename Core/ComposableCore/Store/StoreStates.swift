extension Store {
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
