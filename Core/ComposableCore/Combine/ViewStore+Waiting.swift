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
      let wait = StateWait()
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          guard wait.begin(continuation) else { return }
          // The publisher gives the current state first, so a state that already fails the
          // predicate ends the wait here.
          let subscription = publisher.first { !predicate($0) }.sink { _ in wait.end() }
          wait.keep(subscription)
        }
      } onCancel: {
        wait.end()
      }
    }
  }

  /// One wait for a state: resumed once, by the state or by cancellation, whichever comes first.
  private final class StateWait: Sendable {
    private enum Phase {
      case idle
      case waiting(CheckedContinuation<Void, Never>, AnyCancellable?)
      case ended
    }

    private let phase = LockIsolated(UncheckedSendable(Phase.idle))

    /// Starts waiting, unless the wait has ended already, in which case it resumes at once.
    func begin(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
      let ended = phase.withValue { phase in
        guard case .idle = phase.value else { return true }
        phase = UncheckedSendable(.waiting(continuation, nil))
        return false
      }
      if ended { continuation.resume() }
      return !ended
    }

    /// Holds the subscription until the wait ends, or cancels it if it has.
    func keep(_ subscription: AnyCancellable) {
      let kept = phase.withValue { phase in
        guard case .waiting(let continuation, nil) = phase.value else { return false }
        phase = UncheckedSendable(.waiting(continuation, subscription))
        return true
      }
      if !kept { subscription.cancel() }
    }

    func end() {
      let previous = phase.withValue { phase in
        defer { phase = UncheckedSendable(.ended) }
        return phase.value
      }
      guard case .waiting(let continuation, let subscription) = previous else { return }
      subscription?.cancel()
      continuation.resume()
    }
  }
#endif
