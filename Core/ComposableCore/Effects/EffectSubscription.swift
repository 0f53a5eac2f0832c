import ConcurrencyExtras
import Foundation

/// A subscription an effect makes when its store starts it, inside `send`, as TCA subscribes to a
/// Combine publisher: `subscribe` is handed what to call with each action and at the end, and
/// returns how to cancel. Only the store calls it, on the main actor; hence unchecked.
@usableFromInline
struct EffectSubscription<Action>: @unchecked Sendable {
  let subscribe:
    (_ receive: @escaping (Action) -> Void, _ complete: @escaping () -> Void) -> () -> Void

  func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> EffectSubscription<T> {
    EffectSubscription<T> { receive, complete in
      subscribe({ receive(transform($0)) }, complete)
    }
  }
}

extension RootCore {
  /// Subscribes now, while the action that returned the effect is processed, as TCA does. What
  /// the subscription delivers on the main queue is sent at once (queued behind the action being
  /// processed, if any); what it delivers elsewhere goes through the effect's task. That task
  /// lives until the subscription completes and is what cancellation and a test store's
  /// in-flight effects see; a subscription that completes at once starts none.
  func subscribe(
    _ subscription: EffectSubscription<Action>, _ context: EffectContext, origin: Action
  ) {
    var context = context
    let relay = SubscriptionRelay<Action>(group: context.tasks)
    let cancel = subscription.subscribe(
      { [weak self] action in
        guard MainQueue.isCurrent else { return relay.yield(action) }
        MainActor.assumeIsolated {
          // Cancelled, it hears nothing more, though its task has not yet run to end the
          // subscription.
          guard relay.task?.isCancelled != true else { return }
          _ = self?.send(action, tasks: relay.group)
        }
      },
      { [weak self] in
        relay.finish()
        // Completed on the main queue, it is off the running effects at once, as TCA's publisher
        // effects are: a test ending, or a count of them, right after sees it gone. Not while
        // actions from other threads may still wait in the relay for its task to send them.
        guard MainQueue.isCurrent, !relay.hasActions else { return }
        MainActor.assumeIsolated {
          if let id = relay.effectID { self?.running?.finish(id) }
        }
      }
    )
    // Done while subscribing, with nothing from another thread still to hand on: nothing to run.
    guard !relay.isFinished || relay.hasActions else { return }
    relay.group = resolveTasks(&context)
    let cancelSubscription = UncheckedSendable(cancel)
    (relay.task, relay.effectID) = launch(priority: nil, context, origin: origin) { send in
      await withTaskCancellationHandler {
        for await action in relay.actions { await send(action.value) }
      } onCancel: {
        cancelSubscription.value()
        relay.finish()
      }
    }
  }
}

/// Carries a subscription's actions from other threads to its effect's task, and its end.
final class SubscriptionRelay<Action>: Sendable {
  let actions: AsyncStream<UncheckedSendable<Action>>
  private let continuation: AsyncStream<UncheckedSendable<Action>>.Continuation
  private let finished = LockIsolated(false)
  private let yielded = LockIsolated(false)
  /// The group actions sent on the main queue join: the sending action's while it subscribes,
  /// then the effect's.
  @MainActor var group: EffectTasks?
  /// The effect's task, once it is made.
  @MainActor var task: Task<Void, Never>?
  /// The effect's id among its store's running effects, once it is made.
  @MainActor var effectID: Int?

  @MainActor init(group: EffectTasks?) {
    self.group = group
    (actions, continuation) = AsyncStream.makeStream()
  }

  var isFinished: Bool { finished.value }

  /// Whether any action came from another thread.
  var hasActions: Bool { yielded.value }

  func yield(_ action: Action) {
    yielded.setValue(true)
    continuation.yield(UncheckedSendable(action))
  }

  func finish() {
    finished.setValue(true)
    continuation.finish()
  }
}

/// Whether the code running now runs on the main queue, the main actor's executor, whichever
/// thread serves it: told by a marker set on the queue once.
package enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the main queue runs the current code.
  package static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) == true
  }
}
