#if canImport(OpenCombineShim)
  import ConcurrencyExtras
  @preconcurrency import OpenCombineShim

  @available(*, deprecated, message: "Use an '@ObservableState' store instead.")
  extension ViewStore {
    /// Sends an action, then suspends while `predicate` holds for the view state, as a screen
    /// waits on a refresh; cancelling the wait cancels the action's effects.
    public func send(
      _ action: ViewAction,
      while predicate: @escaping (_ state: ViewState) -> Bool
    ) async {
      let task = send(action)
      await withTaskCancellationHandler {
        await yield(while: predicate)
      } onCancel: {
        task.cancel()
      }
    }

    /// Suspends while `predicate` holds for the view state, returning at once when it does not;
    /// a cancelled wait returns too.
    public func yield(while predicate: @escaping (_ state: ViewState) -> Bool) async {
      // The publisher gives the current state first, so a state that already fails the
      // predicate ends the wait at once; a cancelled task ends the iteration.
      let (states, continuation) = AsyncStream<UncheckedSendable<ViewState>>.makeStream()
      let subscription = UncheckedSendable(
        publisher.sink { continuation.yield(UncheckedSendable($0)) })
      continuation.onTermination = { _ in subscription.value.cancel() }
      // Finished, the stream lets go of the subscription, which holds its continuation.
      defer { continuation.finish() }
      for await state in states where !predicate(state.value) { return }
    }
  }
#endif
