import ComposableSharing

/// The tasks started, directly or through the actions their effects sent, by one `send`.
///
/// It backs ``StoreTask``: finishing awaits every task, including ones added while waiting, and
/// cancelling reaches tasks added later too.
@usableFromInline
package final class EffectTasks: Sendable {
  private struct Storage {
    /// The tasks still running, by their effect's id in the store, to cancel with the group.
    /// Each is let go as it ends: a send whose effect runs for the app's lifetime and sends
    /// actions that start effects of their own gathers every one of them in this group, and a
    /// list of all of them grew without end (a finished task held costs about 1.5 KB).
    var tasks: [Int: Task<Void, Never>] = [:]
    /// Effects that ended before their task was handed over here.
    var endedEarly: Set<Int> = []
    /// Tasks started and not yet ended. A task that sends an action starts that action's tasks
    /// before it ends itself, so none is left when this reaches zero.
    var running = 0
    var waiters: [UnsafeContinuation<Void, Never>] = []
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

  /// Counts a task about to be made, before it can end.
  package func willStart() {
    storage.withLock { $0.running += 1 }
  }

  /// Keeps a task counted with `willStart`, the one of the effect `id`, to cancel it with the
  /// others while it runs.
  package func append(_ task: Task<Void, Never>, id: Int) {
    let isCancelled = storage.withLock { storage in
      if storage.endedEarly.remove(id) == nil { storage.tasks[id] = task }
      return storage.isCancelled
    }
    if isCancelled { task.cancel() }
  }

  /// Counts the task of the effect `id` as ended, and resumes those waiting once it was the last.
  package func ended(id: Int) {
    let waiters = storage.withLock { storage in
      if storage.tasks.removeValue(forKey: id) == nil { storage.endedEarly.insert(id) }
      storage.running -= 1
      guard storage.running == 0 else { return [UnsafeContinuation<Void, Never>]() }
      defer { storage.waiters = [] }
      return storage.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  package func cancelAll() {
    let tasks = storage.withLock { storage in
      storage.isCancelled = true
      return storage.tasks.values
    }
    for task in tasks { task.cancel() }
  }

  /// How many tasks the group holds on to: those still running.
  package var heldTaskCount: Int {
    storage.withLock { $0.tasks.count }
  }

  // One wait for the count to reach zero, not one for each task in turn: that woke the waiting
  // task as each one ended, a thread switch apiece when a send started many.
  /// Waits until every task has ended, including tasks added meanwhile.
  package func waitAll() async {
    if storage.withLock({ $0.running == 0 }) { return }
    await withUnsafeContinuation { continuation in
      let hasEnded = storage.withLock { storage in
        if storage.running == 0 { return true }
        storage.waiters.append(continuation)
        return false
      }
      if hasEnded { continuation.resume() }
    }
  }

  /// Whether these tasks were cancelled, together, as a group.
  package var isCancelled: Bool {
    storage.withLock { $0.isCancelled }
  }

  /// Waits until every task has finished, including ones added while waiting; cancelling the
  /// waiting task cancels them all.
  package func finish() async {
    await withTaskCancellationHandler {
      await waitAll()
    } onCancel: {
      cancelAll()
    }
  }
}

/// The handle `Store.send` returns for the effects an action started.
public struct StoreTask: Hashable, Sendable {
  // The send's group of tasks, not a task awaiting them: such a task was started for every send
  // that started an effect, awaited or not, and cost each one more thread switches.
  package let effects: EffectTasks?

  package init(effects: EffectTasks?) {
    self.effects = effects
  }

  /// Cancels every effect the action started, and those started by actions they sent.
  public func cancel() {
    effects?.cancelAll()
  }

  /// Waits until every effect the action started has finished; cancelling the waiting task
  /// cancels the effects.
  public func finish() async {
    await effects?.finish()
  }

  /// Whether the effects were cancelled; an action that started no effect counts as cancelled,
  /// since there is nothing left to run.
  public var isCancelled: Bool {
    effects?.isCancelled ?? true
  }

  /// Whether both handles are for the same send's effects.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.effects === rhs.effects
  }

  /// Hashes the identity of the send's effects.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(effects.map(ObjectIdentifier.init))
  }
}
