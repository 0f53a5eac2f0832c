import ComposableSharing

/// The tasks started, directly or through the actions their effects sent, by one `send`.
///
/// It backs ``StoreTask``: finishing awaits every task, including ones added while waiting, and
/// cancelling reaches tasks added later too.
@usableFromInline
package final class EffectTasks: Sendable {
  private struct Storage {
    var tasks: [Task<Void, Never>] = []
    var isCancelled = false
  }

  // Changed in place: with a copy written back (`LockIsolated.withValue`), each task added
  // copied the whole list.
  private let storage = Locked(Storage())
  /// The `RootCore.sendTag` of the send that made this group.
  package let tag: Int

  package init(tag: Int = 0) {
    self.tag = tag
  }

  package func append(_ task: Task<Void, Never>) {
    let isCancelled = storage.withLock { storage in
      storage.tasks.append(task)
      return storage.isCancelled
    }
    if isCancelled { task.cancel() }
  }

  package func cancelAll() {
    let tasks = storage.withLock { storage in
      storage.isCancelled = true
      return storage.tasks
    }
    for task in tasks { task.cancel() }
  }

  package func waitAll() async {
    var index = 0
    while true {
      let position = index
      guard
        let task = storage.withLock({
          $0.tasks.indices.contains(position) ? $0.tasks[position] : nil
        })
      else { return }
      await task.value
      index += 1
    }
  }

  /// A task that finishes when all of these have, and cancels them all when cancelled.
  @usableFromInline
  package func makeTask() -> Task<Void, Never> {
    Task {
      await withTaskCancellationHandler {
        await self.waitAll()
      } onCancel: {
        self.cancelAll()
      }
    }
  }
}

/// The handle `Store.send` returns for the effects an action started.
public struct StoreTask: Hashable, Sendable {
  package let rawValue: Task<Void, Never>?

  package init(rawValue: Task<Void, Never>?) {
    self.rawValue = rawValue
  }

  /// Cancels every effect the action started, and those started by actions they sent.
  public func cancel() {
    rawValue?.cancel()
  }

  /// Waits until every effect the action started has finished; cancelling the waiting task
  /// cancels the effects.
  public func finish() async {
    await rawValue?.cancellableValue
  }

  /// Whether the effects were cancelled; an action that started no effect counts as cancelled,
  /// since there is nothing left to run.
  public var isCancelled: Bool {
    rawValue?.isCancelled ?? true
  }
}
