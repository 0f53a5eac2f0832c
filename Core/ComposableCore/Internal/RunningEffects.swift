import ComposableSharing
import ConcurrencyExtras
import IssueReporting
import Synchronization

/// The effects of one store that are still running: each one's task, where in the reducer tree it
/// was started, and the cancellation ids it is known by.
///
/// Shared with the effects' tasks, which take themselves off as they end, under its lock. Doing
/// that on the main actor cost every effect two more thread switches (there and back) before it
/// could finish, and a caller awaiting it waited for both.
final class RunningEffects<Action>: CancellationRegistry {
  private struct Storage: Sendable {
    var effects: [Int: RunningEffectEntry] = [:]
    /// Each listed effect's task, once made.
    var tasks: [Int: Task<Void, Never>] = [:]
    // Apart from the entries, which are then not generic, and specialised: the generic
    // dictionary's operations allocate for every value they move.
    // Unchecked: made on the main actor and only read there, by a test store; an effect's task
    // may drop one as it ends, which only releases it.
    var origins: [Int: UncheckedSendable<Action>] = [:]
    var cancellables: [CancelKey: Set<Int>] = [:]
    /// Operations run with `withTaskCancellation(id:)` inside the effects, each with the key it
    /// is known by and the way to cancel it; their ids share `nextID` with the effects'.
    var operations: [Int: (key: CancelKey, cancel: @Sendable () -> Void)] = [:]
    /// Effects a test store no longer waits for or reports (`skipInFlightEffects()`), still
    /// running: they can be cancelled, and what they send still arrives.
    var forgotten: Set<Int> = []
    /// The longest path any id was ever listed under: a cancellation looks for its children's
    /// effects only below it, so a feature with no cancellable children (a debounced search
    /// field, cancelled on every keystroke) pays one comparison.
    var deepestPath = 0
    var nextID = 0
    /// Set for the stores `Effect.actions` makes, whose ids are listed in the table of work
    /// outside stores, under this path, so that cancelling there reaches them.
    let detachedPath: NavigationIDPath?
    /// The tokens each listed effect or operation holds in that table.
    var detachedTokens: [Int: [(id: EffectID, token: Int)]] = [:]

    init(detachedPath: NavigationIDPath?) {
      self.detachedPath = detachedPath
    }

    /// Takes the effect off, and its id from each of its keys, returning its task if it had one.
    mutating func remove(_ id: Int) -> Task<Void, Never>? {
      guard let effect = effects.removeValue(forKey: id) else { return nil }
      origins[id] = nil
      if !forgotten.isEmpty { forgotten.remove(id) }
      for key in effect.keys {
        guard var ids = cancellables.removeValue(forKey: key) else { continue }
        ids.remove(id)
        if !ids.isEmpty { cancellables[key] = ids }
      }
      if detachedPath != nil { unlistDetached(id) }
      return tasks.removeValue(forKey: id)
    }

    /// Lists effect or operation `id` in the table of work outside stores under each of `keys`,
    /// to be cancelled there through `running`.
    mutating func listDetached(
      _ id: Int, keys: [CancelKey], in running: RunningEffects, path: NavigationIDPath
    ) {
      detachedTokens[id] = keys.map { key in
        let token = DetachedCancellation.register(key.id, path: path) { [weak running] in
          running?.cancelDetached(id)
        }
        return (key.id, token)
      }
    }

    /// Takes operation `id` off, returning how to cancel it, unless it is off already.
    mutating func removeOperation(_ id: Int) -> (@Sendable () -> Void)? {
      guard let operation = operations.removeValue(forKey: id) else { return nil }
      if detachedPath != nil { unlistDetached(id) }
      if var ids = cancellables.removeValue(forKey: operation.key) {
        ids.remove(id)
        if !ids.isEmpty { cancellables[operation.key] = ids }
      }
      return operation.cancel
    }

    mutating func unlistDetached(_ id: Int) {
      guard let detachedPath, let tokens = detachedTokens.removeValue(forKey: id) else { return }
      for (effectID, token) in tokens {
        DetachedCancellation.unregister(token, effectID, path: detachedPath)
      }
    }

    // Taken out and put back, not changed in place (`cancellables[key]?.insert(id)`): the
    // dictionary's in-place access allocated three times for every effect it was used for.
    mutating func add(_ id: Int, to key: CancelKey) {
      deepestPath = max(deepestPath, key.path.count)
      var ids = cancellables.removeValue(forKey: key) ?? []
      ids.insert(id)
      cancellables[key] = ids
    }
  }

  private let storage: Locked<Storage>
  /// The storage's, read without its lock by `cancel`.
  private let detachedPath: NavigationIDPath?

  /// Running effects of a store that lists nothing outside itself, or, with `detachedPath`, of a
  /// store `Effect.actions` makes, whose ids are in the table of work outside stores.
  init(detachedPath: NavigationIDPath? = nil) {
    storage = Locked(Storage(detachedPath: detachedPath))
    self.detachedPath = detachedPath
  }

  /// Lists an effect and returns the task `start` makes for it from its id. The effect is listed
  /// before its task is made, so a task that ends at once still finds itself to take off; the
  /// task is made outside the lock, which the tasks ending meanwhile would otherwise wait on.
  func add(
    path: [EffectScope],
    keys: [CancelKey],
    origin: Action,
    tag: Int,
    start: (Int) -> Task<Void, Never>
  ) -> Task<Void, Never> {
    let id = storage.withLock { storage in
      let id = storage.nextID
      storage.nextID &+= 1
      storage.effects[id] = RunningEffectEntry(path: path, keys: keys, tag: tag)
      storage.origins[id] = UncheckedSendable(origin)
      for key in keys { storage.add(id, to: key) }
      if let path = storage.detachedPath, !keys.isEmpty {
        storage.listDetached(id, keys: keys, in: self, path: path)
      }
      return id
    }
    let task = start(id)
    storage.withLock { storage in
      // Unless it has ended already, or been cancelled (only on the main actor, as this is).
      if storage.effects[id] != nil { storage.tasks[id] = task }
    }
    return task
  }

  /// Takes an effect that ended off the list.
  func finish(_ id: Int) {
    _ = storage.withLock { $0.remove(id) }
  }

  /// Cancels the effects known by `key`, and the operations run under it: those of the feature
  /// that cancels, and, as in TCA, those its children (presented, scoped, in its stack or
  /// collection) started under the same id, whose paths go on from its path.
  func cancel(_ key: CancelKey) {
    if let path = detachedPath {
      // Through the table, which reaches this store's effects and every other run outside stores.
      DetachedCancellation.cancel(key.id, path: path)
      return
    }
    var operations: [@Sendable () -> Void] = []
    cancel { storage in
      var ids = storage.cancellables.removeValue(forKey: key) ?? []
      if storage.deepestPath > key.path.count {
        let descendants = storage.cancellables.keys.filter {
          $0.id == key.id && $0.path.count > key.path.count && $0.path.starts(with: key.path)
        }
        for descendant in descendants {
          ids.formUnion(storage.cancellables.removeValue(forKey: descendant) ?? [])
        }
      }
      return ids.compactMap { id in
        if let operation = storage.operations.removeValue(forKey: id) {
          operations.append(operation.cancel)
          return nil
        }
        return storage.remove(id)
      }
    }
    for cancel in operations { cancel() }
  }

  /// Lists an operation known by `key`, which `cancel` reaches until `unregister` takes it off,
  /// and returns its id.
  func register(_ key: CancelKey, cancel: @escaping @Sendable () -> Void) -> Int {
    storage.withLock { storage in
      let id = storage.nextID
      storage.nextID &+= 1
      storage.operations[id] = (key, cancel)
      storage.add(id, to: key)
      if let path = storage.detachedPath {
        storage.listDetached(id, keys: [key], in: self, path: path)
      }
      return id
    }
  }

  /// Takes off an operation that ended, unless a cancellation took it off already.
  func unregister(_ id: Int) {
    _ = storage.withLock { $0.removeOperation(id) }
  }

  /// Cancels effect or operation `id`, as the table of work outside stores asks.
  private func cancelDetached(_ id: Int) {
    var operation: (@Sendable () -> Void)?
    cancel { storage in
      operation = storage.removeOperation(id)
      return operation == nil ? storage.remove(id).map { [$0] } ?? [] : []
    }
    operation?()
  }

  /// Cancels, in one pass, the effects started where `isGone` says of their path in the reducer
  /// tree: a child that went away, or several.
  func cancelAll(where isGone: ([EffectScope]) -> Bool) {
    cancel { storage in
      let ids = storage.effects.compactMap { isGone($0.value.path) ? $0.key : nil }
      return ids.compactMap { storage.remove($0) }
    }
  }

  /// Cancels every effect.
  func cancelAll() {
    cancel { storage in
      Array(storage.effects.keys).compactMap { storage.remove($0) }
    }
  }

  /// Takes off the effects `select` removes, then cancels their tasks, outside the lock.
  private func cancel(_ select: (inout Storage) -> [Task<Void, Never>]) {
    let cancelled = storage.withLock(select)
    for task in cancelled { task.cancel() }
  }

  /// Keeps every effect running now out of ``list`` and ``isEmpty`` from here on.
  func forgetAll() {
    storage.withLock { $0.forgotten.formUnion($0.effects.keys) }
  }

  /// The effects still running and not forgotten, oldest first: the action that returned each
  /// one, and its tag.
  var list: [(origin: Action, tag: Int)] {
    storage.withLock { storage in
      storage.effects.sorted { $0.key < $1.key }.compactMap { id, effect in
        guard !storage.forgotten.contains(id) else { return nil }
        return storage.origins[id].map { ($0.value, effect.tag) }
      }
    }
  }

  /// Every running effect's id, oldest first, with a way to cancel its task.
  var cancellers: [(id: Int, cancel: @Sendable () -> Void)] {
    storage.withLock { storage in
      storage.effects.keys.sorted().map { id in
        let task = storage.tasks[id]
        return (id, { task?.cancel() })
      }
    }
  }

  /// How many `withTaskCancellation(id:)` operations are listed.
  var operationCount: Int {
    storage.withLock { $0.operations.count }
  }

  /// Whether no effect that is not forgotten is running.
  var isEmpty: Bool {
    storage.withLock { $0.effects.count == $0.forgotten.count }
  }
}

/// What a store keeps of one running effect, beside its task and the action that started it.
struct RunningEffectEntry: Sendable {
  let path: [EffectScope]
  let keys: [CancelKey]
  /// The `RootCore.sendTag` of the outermost send the effect descends from.
  let tag: Int
}

/// One effect's task as its store runs it: the operation, and the way back to the store for the
/// actions it sends and for its end.
///
/// One object for all of it: closures capturing the store weakly cost an allocation apiece (five
/// for each `.run` effect), where a closure capturing only this object is this object.
@MainActor
final class RunningEffect<R: Reducer>: Sendable {
  /// Weak, so an effect still running does not keep its store's core alive.
  weak var core: RootCore<R>?
  let id: Int
  /// The send's group, which actions it sends join, and which it tells as it ends.
  let tasks: EffectTasks
  /// Its slot in `tasks`.
  let slot: Int
  /// The group of the part of a concatenation it runs in, told too.
  let collector: EffectTasks?
  let collectorSlot: Int
  let running: RunningEffects<R.Action>
  /// Where in the reducer tree it was returned.
  let path: [EffectScope]
  let operation: @Sendable (Send<R.Action>) async -> Void
  /// The action the store was sending when the effect was returned, named when the effect sends
  /// after it completed.
  let origin: R.Action
  /// Set when the operation returns: a send after that came through a `send` the operation let
  /// escape, which is reported (the action is still sent, as in TCA).
  nonisolated let isCompleted = Atomic<Bool>(false)

  init(
    core: RootCore<R>,
    id: Int,
    tasks: EffectTasks,
    slot: Int,
    collector: EffectTasks?,
    collectorSlot: Int,
    running: RunningEffects<R.Action>,
    path: [EffectScope],
    origin: R.Action,
    operation: @escaping @Sendable (Send<R.Action>) async -> Void
  ) {
    self.core = core
    self.id = id
    self.tasks = tasks
    self.slot = slot
    self.collector = collector
    self.collectorSlot = collectorSlot
    self.running = running
    self.path = path
    self.origin = origin
    self.operation = operation
  }

  // Nonisolated, so the task's closure is too: it starts on the global executor, not on the
  // main actor, while still inheriting the task-locals bound where it is made.
  nonisolated func start(priority: TaskPriority?) -> Task<Void, Never> {
    Task(priority: priority) { await self.run() }
  }

  nonisolated func run() async {
    // Bound for the operation, so that `withTaskCancellation(id:)` and `Task.cancel(id:)` in it
    // find this store's effects, under the path of the feature that returned this one.
    await CurrentEffect.$identity.withValue(self) {
      await operation(
        Send { [self] action in
          if isCompleted.load(ordering: .acquiring) { reportSendAfterCompletion(action) }
          _ = core?.send(action, tasks: tasks)
        })
    }
    isCompleted.store(true, ordering: .releasing)
    running.finish(id)
    tasks.ended(slot: slot)
    collector?.ended(slot: collectorSlot)
  }
}

extension RunningEffect {
  func reportSendAfterCompletion(_ action: R.Action) {
    reportIssue(
      """
      An action was sent from a completed effect.

        Action:
          \(debugCaseOutput(action))

        Effect returned from:
          \(debugCaseOutput(origin))

      Avoid sending actions using the 'send' argument from 'Effect.run' after the effect has \
      completed. This can happen if you escape the 'send' argument in an unstructured context.

      To fix this, make sure that your 'run' closure does not return until you're done calling \
      'send'.
      """
    )
  }
}

extension RunningEffect: RunningEffectIdentity {
  nonisolated var registry: any CancellationRegistry { running }
}

extension [EffectScope] {
  /// Whether this path goes through `parent` and then one of `children`.
  func isUnder(_ parent: [EffectScope], oneOf children: Set<EffectScope>) -> Bool {
    count > parent.count && children.contains(self[parent.count]) && starts(with: parent)
  }
}
