#if canImport(OpenCombineShim)
  import ConcurrencyExtras
  import OpenCombineShim

  extension Effect {
    /// An effect that subscribes to a Combine publisher when the store starts it, inside `send`,
    /// and sends each value it publishes as an action, until the publisher completes or the
    /// effect is cancelled. Values published on the main queue are sent at once.
    public static func publisher<P: Publisher<Action, Never>>(
      _ createPublisher: @escaping () -> P
    ) -> Self {
      Self(
        operation: .subscribe(
          EffectSubscription { receive, complete in
            let cancellable = createPublisher().sink(
              receiveCompletion: { _ in complete() }, receiveValue: receive)
            return { cancellable.cancel() }
          }))
    }
  }
#endif

#if canImport(OpenCombineShim)
  /// A publisher of the actions an effect sends, run on its own as ``Effect/actions`` runs it:
  /// it completes when the effect finishes, and cancelling the subscription cancels the effect.
  @_spi(Internals)
  public struct _EffectPublisher<Action>: Publisher {
    /// The effect's actions.
    public typealias Output = Action
    /// Effects do not fail.
    public typealias Failure = Never

    let effect: Effect<Action>

    /// The publisher of `effect`'s actions.
    public init(_ effect: Effect<Action>) {
      self.effect = effect
    }

    /// Starts the effect for `subscriber`.
    public func receive<S: Subscriber<Action, Never>>(subscriber: S) {
      // The subject is subscribed to before the effect starts, so nothing it sends is missed.
      let subject = PassthroughSubject<Action, Never>()
      let actions = UncheckedSendable(effect.actions)
      let sink = UncheckedSendable(subject)
      let task = Task {
        for await action in actions.value { sink.value.send(action) }
        sink.value.send(completion: .finished)
      }
      subject.handleEvents(receiveCancel: { task.cancel() }).receive(subscriber: subscriber)
    }
  }
#endif
