#if canImport(OpenCombineShim)
  import ConcurrencyExtras
  import OpenCombineShim

  extension Effect {
    /// An effect that subscribes to a Combine publisher when it starts and sends each value it
    /// publishes as an action, until the publisher completes or the effect is cancelled.
    public static func publisher<P: Publisher<Action, Never>>(
      _ createPublisher: @escaping () -> P
    ) -> Self {
      // The publisher is made and subscribed to inside the effect's task; its values reach the
      // store through `send`, one at a time, in order.
      let create = UncheckedSendable(createPublisher)
      return .run { send in
        let stream = AsyncStream<UncheckedSendable<Action>> { continuation in
          let cancellable = create.value().sink(
            receiveCompletion: { _ in continuation.finish() },
            receiveValue: { continuation.yield(UncheckedSendable($0)) }
          )
          let subscription = UncheckedSendable(cancellable)
          continuation.onTermination = { _ in subscription.value.cancel() }
        }
        for await action in stream {
          await send(action.value)
        }
      }
    }
  }
#endif
