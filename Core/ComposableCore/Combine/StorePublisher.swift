#if canImport(OpenCombineShim)
  @preconcurrency import OpenCombineShim

  extension Store {
    /// The store's states as a Combine publisher: the current state when subscribed, then the
    /// state after each action. `store.publisher.count` publishes one field, without repeats.
    /// Subscribe on the main actor; the subscription keeps the store alive.
    public var publisher: StorePublisher<State> {
      let core = self.core
      let states = Deferred {
        // A store's publisher is subscribed to on the main actor, like everything of a store.
        MainActor.assumeIsolated {
          let subject = CurrentValueSubject<State, Never>(core.state)
          let id = core.addObserver { subject.send(copy $0) }
          let removal = RemoveObserver(core: core, id: id)
          // Not isolated: a subscription can be cancelled from any thread (a view store
          // released off the main actor cancels its own), and a closure formed here would be
          // the main actor's, checked at run time and a crash anywhere else.
          let cancel: @Sendable () -> Void = { removal.run() }
          return UncheckedSendable(subject.handleEvents(receiveCancel: cancel))
        }.value
      }
      return StorePublisher(upstream: states.eraseToAnyPublisher(), store: self)
    }
  }

  /// Unregisters a publisher's observer when its subscription is cancelled, on the main actor
  /// where the store lives.
  private struct RemoveObserver<State, Action>: Sendable {
    weak var core: (any StoreCore<State, Action>)?
    let id: Int

    func run() {
      let (core, id) = (core, id)
      Task { @MainActor in core?.removeObserver(id) }
    }
  }

  /// A publisher of a store's states, or of one part of them.
  @dynamicMemberLookup
  public struct StorePublisher<State>: Publisher {
    /// Each value is a state.
    public typealias Output = State
    /// A store never fails.
    public typealias Failure = Never

    let upstream: AnyPublisher<State, Never>
    /// Kept so that a subscription outlives every other reference to the store.
    let store: AnyObject

    /// Subscribes `subscriber` to the states.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == State, S.Failure == Never {
      upstream
        .handleEvents(receiveCancel: { [store] in _ = store })
        .receive(subscriber: subscriber)
    }

    /// A publisher of one field of the state, publishing only when it changes.
    public subscript<Value: Equatable>(
      dynamicMember keyPath: KeyPath<State, Value>
    ) -> StorePublisher<Value> {
      StorePublisher<Value>(
        upstream: upstream.map(keyPath).removeDuplicates().eraseToAnyPublisher(),
        store: store
      )
    }
  }
#endif
