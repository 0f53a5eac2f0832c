import ComposableSharing

/// The tasks started, directly or through the actions their effects sent, by one `send`.
///
/// It backs ``StoreTask``: finishing awaits every task, including ones added while waiting, and
/// cancelling reaches tasks added later too.
@usableFromInline
package final class EffectTasks: Sendable {
  /// What a slot of the group holds.
  private enum Slot {
    /// Counted, its task not handed over yet.
    case reserved
    case running(Task<Void, Never>)
    /// Ended before its task was handed over; free once it is.
    case endedEarly
    case free
  }

  private struct Storage {
    /// The tasks still running, to cancel with the group, in slots that are used again once
    /// their task ends. A send whose effect runs for the app's lifetime and sends actions that
    /// start effects of their own gathers every one of them in this group, and a list of all of
    /// them grew without end (a finished task held costs about 1.5 KB). Reused slots, rather
    /// than a dictionary by effect id, so that a start and an end hash nothing.
    var slots: [Slot] = []
    var freeSlots: [Int] = []
    /// Tasks started and not yet ended. A task that sends an action starts that action's tasks
    /// before it ends itself, so none is left when this reaches zero.
    var running = 0
    /// Tasks that ended, let go in a batch when the next task starts or the last one ends.
    /// Each let go on the thread it ended on was freed away from the thread that made it, while
    /// that thread made the next ones: a burst of 1,000 effects took about 8 % longer.
    var ended: [Task<Void, Never>] = []
    var waiters: [CheckedContinuation<Void, Never>] = []
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

  /// Counts a task about to be made, before it can end, and returns the slot to hand it over
  /// in and to end it by.
  package func willStart() -> Int {
    let (slot, ended) = storage.withLock { storage in
      storage.running += 1
      let ended = storage.ended
      if !ended.isEmpty { storage.ended = [] }
      if let slot = storage.freeSlots.popLast() {
        storage.slots[slot] = .reserved
        return (slot, ended)
      }
      storage.slots.append(.reserved)
      return (storage.slots.count - 1, ended)
    }
    _ = ended
    return slot
  }

  /// Keeps the task counted in `slot` by `willStart`, to cancel it with the others while it
  /// runs.
  package func append(_ task: Task<Void, Never>, slot: Int) {
    let isCancelled = storage.withLock { storage in
      if case .endedEarly = storage.slots[slot] {
        storage.slots[slot] = .free
        storage.freeSlots.append(slot)
      } else {
        storage.slots[slot] = .running(task)
      }
      return storage.isCancelled
    }
    if isCancelled { task.cancel() }
  }

  /// Counts the task in `slot` as ended, and resumes those waiting once it was the last.
  package func ended(slot: Int) {
    let (ended, waiters) = storage.withLock { storage in
      if case .running(let task) = storage.slots[slot] {
        storage.ended.append(task)
        storage.slots[slot] = .free
        storage.freeSlots.append(slot)
      } else {
        // Not handed over yet: the slot stays taken until it is, so no other task gets it.
        storage.slots[slot] = .endedEarly
      }
      storage.running -= 1
      guard storage.running == 0 else {
        return ([Task<Void, Never>](), [CheckedContinuation<Void, Never>]())
      }
      defer {
        storage.ended = []
        storage.waiters = []
      }
      return (storage.ended, storage.waiters)
    }
    for waiter in waiters { waiter.resume() }
    // Let go after the lock and after the waiters: freeing them is the slow part.
    _ = ended
  }

  package func cancelAll() {
    let tasks = storage.withLock { storage in
      storage.isCancelled = true
      return storage.slots.compactMap { slot -> Task<Void, Never>? in
        guard case .running(let task) = slot else { return nil }
        return task
      }
    }
    for task in tasks { task.cancel() }
  }

  /// How many tasks the group holds on to: those running, and those that ended since a task
  /// last started.
  package var heldTaskCount: Int {
    storage.withLock { storage in
      storage.slots.count { if case .running = $0 { true } else { false } } + storage.ended.count
    }
  }

  // One wait for the count to reach zero, not one for each task in turn: that woke the waiting
  // task as each one ended, a thread switch apiece when a send started many.
  /// Waits until every task has ended, including tasks added meanwhile.
  package func waitAll() async {
    if storage.withLock({ $0.running == 0 }) { return }
    await withCheckedContinuation { continuation in
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
