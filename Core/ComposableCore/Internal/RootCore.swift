import Dependencies
import Foundation

/// The state, reducer and effect machinery of a root store. `Store` and `TestStore` both run on
/// it, so a test exercises exactly what the application runs.
@MainActor
@usableFromInline
package final class RootCore<R: Reducer>: StoreCore {
  @usableFromInline package typealias State = R.State
  @usableFromInline package typealias Action = R.Action

  @usableFromInline package internal(set) var state: State
  /// Runs the store's reducer, which it holds. Made by whoever makes the store: `Store.init` is
  /// inlined where the feature's type is known, so this closure, and every body and operator
  /// below it, runs specialised for that type — generic reducers (`Level<Level<…>>`) included —
  /// instead of looking up generic type metadata on every action.
  @usableFromInline let run: (inout State, Action) -> Effect<Action>
  /// Writable so a test can change dependencies between steps.
  // Read once an action; only ever replaced whole (by a test store, between steps), never
  // changed in place across a call, so the dynamic exclusivity check each read paid (about 95
  // instructions a send) guarded nothing.
  @usableFromInline @exclusivity(unchecked) package var dependencies: DependencyValues
  /// Stamped on the effects of the next outermost `send`, so a test store can say which of its
  /// steps started an effect that is still running.
  package var sendTag = 0

  // Read and written by the inlinable sending path below, where the compiler no longer sees
  // every access and would check each one at run time (about 60 instructions apiece). None
  // overlaps another: each is a plain read or write, or an append that runs no other code.
  // Releasing processed actions runs other code (their payloads' deinits), so `drainQueue`
  // does it outside `queue`.
  @usableFromInline @exclusivity(unchecked) var queue: [QueuedAction] = []
  @usableFromInline @exclusivity(unchecked) var isProcessing = false
  @usableFromInline @exclusivity(unchecked) var hasQueued = false
  /// The group of the outermost `send` being processed, made only once an effect needs it.
  @usableFromInline @exclusivity(unchecked) var rootTasks: EffectTasks?

  /// Made when the first effect starts a task: most stores never start one, and each made here
  /// cost every store four allocations.
  var running: RunningEffects<Action>?
  private var throttles: [CancelKey: ThrottleState] = [:]
  /// Whether any effect was ever throttled: read where most stores have no throttles, as asking
  /// the dictionary looks up its generic metadata (about 490 instructions a cancellation).
  private var hasThrottled = false
  /// How many ids were throttled after the last pass that dropped the expired ones.
  private var throttlesAfterPruning = 0

  // Read after every action; changed only by `addObserver` and `removeObserver`, which run no
  // other code while they change it (a removed observer is let go after the change), so the
  // dynamic exclusivity check each read paid (about 95 instructions a send) guarded nothing.
  @usableFromInline @exclusivity(unchecked) var observers = StoreObservers<State>()

  // `run` is not optional: a function passed through an optional is re-abstracted into the most
  // general form and back, two thunks on every action.
  @usableFromInline
  package init(
    initialState: State,
    dependencies: DependencyValues,
    run: @escaping (inout State, Action) -> Effect<Action>
  ) {
    self.state = initialState
    self.dependencies = dependencies
    self.run = run
  }

  isolated deinit {
    running?.cancelAll()
  }

  // Lent in place, as an `inout` argument that is never changed: handed over as the stored
  // property, the state was copied first, about 290 instructions for each row a redraw reads.
  // `body` only reads and sends nothing, so no other access to `state` overlaps it.
  @usableFromInline
  package func visitState(_ body: (inout State) -> Void) {
    body(&state)
  }

  // MARK: Sending

  // The path an action and the actions its effects send take is inlinable, down to the effects
  // that only send (`run(_:_:)`): `Store.init` calls it where the feature's type is known, so it
  // runs specialised, instead of looking up the generic metadata of the queue, the effect and its
  // context at each step (about 5,800 instructions for one `.send`). What starts tasks, cancels
  // or throttles stays generic, out of line.
  /// Processes `action`, returning the group of the tasks it started, `nil` when it started none.
  @inlinable
  package func send(_ action: Action) -> EffectTasks? {
    guard !isProcessing else { return sendReentrant(action) }
    return send(action, tasks: nil)
  }

  /// A store sent an action while its reducer was running (a reducer or a dependency holding the
  /// store). It is queued behind the current one, but TCA reports it, as a mistake it will not
  /// allow in the future.
  @usableFromInline @inline(never)
  func sendReentrant(_ action: Action) -> EffectTasks? {
    enqueue(action, tasks: nil)
    reportIssue(
      """
      Sent '\(debugCaseOutput(action))' while an action was being processed.

      Reentrant actions are undefined and will be a precondition failure in a future version of \
      the library.
      """
    )
    return nil
  }

  /// Processes `action` and every action it leads to synchronously, in order. An action sent
  /// while another is being processed is queued behind it.
  @inlinable
  func send(_ action: Action, tasks: EffectTasks?) -> EffectTasks? {
    guard !isProcessing else {
      enqueue(action, tasks: tasks)
      return nil
    }
    isProcessing = true
    // Most sends lead to no further action: only touch the queue when something was queued, since
    // every generic array operation here pays for type metadata lookups.
    process(action, tasks: tasks)
    if hasQueued { drainQueue() }
    if !observers.isEmpty { tellObservers() }
    isProcessing = false
    let group = tasks == nil ? rootTasks : nil
    if tasks == nil { rootTasks = nil }
    return group
  }

  @inlinable
  func enqueue(_ action: Action, tasks: EffectTasks?) {
    queue.append(QueuedAction(action: action, tasks: tasks))
    hasQueued = true
  }

  @inlinable
  func drainQueue() {
    repeat {
      var index = 0
      while index < queue.count {
        let queued = queue[index]
        index += 1
        process(queued.action, tasks: queued.tasks)
      }
      // The processed actions are released from `spent`, not from `queue`: releasing one may
      // run a payload's deinit that sends an action, which is appended to `queue` (empty by
      // then) and processed by the next round. Emptied in place, that array keeps its room and
      // is the queue again when nothing was sent meanwhile: a feature whose effects send
      // actions queues one on most of its sends.
      var spent: [QueuedAction] = []
      swap(&queue, &spent)
      hasQueued = false
      spent.removeAll(keepingCapacity: true)
      if !hasQueued { swap(&queue, &spent) }
    } while hasQueued
  }

  @inlinable
  func process(_ action: Action, tasks: EffectTasks?) {
    let effect = Self.reduce(run, &state, action, dependencies)
    guard !effect.isNone else { return }
    run(effect, EffectContext(tasks: tasks), origin: action)
  }

  /// Runs the reducer with the store's dependencies current. Nonisolated, so the closure handed
  /// to the task-local does not carry a main-actor check on every action.
  @inlinable
  nonisolated static func reduce(
    _ run: (inout State, Action) -> Effect<Action>,
    _ state: inout State,
    _ action: Action,
    _ dependencies: DependencyValues
  ) -> Effect<Action> {
    return DependencyValues.$_current.withValue(dependencies) {
      run(&state, action)
    }
  }

  @usableFromInline
  struct QueuedAction {
    @usableFromInline let action: Action
    @usableFromInline let tasks: EffectTasks?

    @inlinable
    init(action: Action, tasks: EffectTasks?) {
      self.action = action
      self.tasks = tasks
    }
  }

  // MARK: Running effects

  func resolveTasks(_ context: inout EffectContext) -> EffectTasks {
    if let tasks = context.tasks { return tasks }
    if let rootTasks {
      context.tasks = rootTasks
      return rootTasks
    }
    let tasks = EffectTasks(tag: sendTag)
    rootTasks = tasks
    context.tasks = tasks
    return tasks
  }

  /// Runs `effect`, which an action `origin` led to, where `context` says.
  // The context is consumed, here and in `runOperation`: borrowed, each scope or key added to it
  // copied the path or keys its caller still held, an allocation at every level. Owned, it costs
  // a lone `.send` about 18 instructions more, to destroy it here.
  @inlinable
  func run(_ effect: Effect<Action>, _ context: consuming EffectContext, origin: Action) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      _ = send(action, tasks: context.tasks)
    case .merge(let effects):
      for effect in effects { run(effect, copy context, origin: origin) }
    default:
      runOperation(effect, context, origin: origin)
    }
  }

  /// Runs an effect that starts work, cancels, throttles or is scoped.
  @usableFromInline
  func runOperation(_ effect: Effect<Action>, _ context: consuming EffectContext, origin: Action) {
    switch effect.operation {
    case .none, .send, .merge:
      // `run` answers these itself; here only for a caller that did not go through it.
      run(effect, context, origin: origin)

    case .run(let priority, let dependencies, let operation):
      launch(priority: priority, dependencies: dependencies, context, origin: origin, operation)

    case .concatenate(let effects):
      runConcatenation(effects, context, origin: origin)

    case .cancellable(let id, let cancelInFlight, let effect):
      let key = CancelKey(id: id, path: context.path)
      if cancelInFlight { cancel(key) }
      context.keys.append(key)
      run(effect, context, origin: origin)

    case .cancel(let id):
      cancel(CancelKey(id: id, path: context.path))

    case .scoped(let scope, let effect):
      // Room for a few levels at once: grown a scope at a time, a row's effect (scoped to the
      // row, then to the child inside it) allocated the path twice.
      if context.path.isEmpty { context.path.reserveCapacity(4) }
      context.path.append(scope)
      run(effect, context, origin: origin)

    case .cancelScope(let scope):
      let prefix = context.path + [scope]
      cancelAll { $0.starts(with: prefix) }

    case .cancelScopes(let scopes):
      let parent = context.path
      cancelAll { $0.isUnder(parent, oneOf: scopes) }

    case .throttle(let id, let throttling, let latest, let effect):
      throttle(
        effect, key: CancelKey(id: id, path: context.path), throttling, latest, &context,
        origin: origin)

    case .subscribe(let subscription):
      subscribe(subscription, context, origin: origin)
    }
  }

  /// Starts `operation` as a task of its own, tracked until it finishes, with `dependencies`
  /// bound when they are not the current ones already. The task starts on the global executor, so
  /// an effect begins its work without waiting for the main actor. Returns the task and the id
  /// the effect is listed under among the running ones.
  @discardableResult
  func launch(
    priority: TaskPriority?,
    dependencies: DependencyValues? = nil,
    _ context: EffectContext,
    origin: Action,
    _ operation: @escaping @Sendable (Send<Action>) async -> Void
  ) -> (task: Task<Void, Never>, id: Int) {
    var context = context
    let tasks = resolveTasks(&context)
    let running = self.running ?? RunningEffects()
    self.running = running
    let collector = context.collector
    let slot = tasks.willStart()
    let collectorSlot = collector?.willStart() ?? 0
    var listedID = 0
    let task = running.add(
      path: context.path, keys: context.keys, origin: origin, tag: tasks.tag
    ) { id in
      listedID = id
      let effect = RunningEffect(
        core: self, id: id, tasks: tasks, slot: slot, collector: collector,
        collectorSlot: collectorSlot, running: running, path: context.path, origin: origin,
        operation: operation)
      // A task inherits the task-locals bound where it is made, and the dependencies are one.
      guard let dependencies else { return effect.start(priority: priority) }
      return DependencyValues.$_current.withValue(dependencies) {
        effect.start(priority: priority)
      }
    }
    tasks.append(task, slot: slot)
    collector?.append(task, slot: collectorSlot)
    return (task, listedID)
  }

  // Out of line: the metadata its task needs for the action was otherwise looked up on entry to
  // `runOperation`, for every effect it ran (about 330 instructions each).
  @inline(never)
  private func runConcatenation(
    _ effects: EffectParts<Action>, _ context: EffectContext, origin: Action
  ) {
    var context = context
    var index = effects.startIndex
    while index < effects.endIndex, effects[index].isSynchronous {
      run(effects[index], context, origin: origin)
      index += 1
    }
    guard index < effects.endIndex else { return }
    let rest = Array(effects[index...])
    _ = resolveTasks(&context)
    let sequenceContext = context
    let sequenceOrigin = UncheckedSendable(origin)
    launch(priority: nil, context, origin: origin) { [weak self] _ in
      await self?.runSequentially(rest, sequenceContext, origin: sequenceOrigin.value)
    }
  }

  private func runSequentially(
    _ effects: [Effect<Action>], _ context: EffectContext, origin: Action
  ) async {
    for effect in effects {
      guard !Task.isCancelled else { return }
      let collector = EffectTasks()
      var stepContext = context
      stepContext.collector = collector
      run(effect, stepContext, origin: origin)
      await withTaskCancellationHandler {
        await collector.waitAll()
      } onCancel: {
        collector.cancelAll()
      }
    }
  }

  // MARK: Cancellation

  private func cancel(_ key: CancelKey) {
    // Looking a key up hashes it, key paths and all, even in an empty dictionary: most stores
    // never throttle.
    if hasThrottled { throttles[key]?.pending = nil }
    running?.cancel(key)
  }

  /// Cancels the effects of children that went away, and their pending throttled actions:
  /// everything started at a path `isGone` picks.
  private func cancelAll(where isGone: ([EffectScope]) -> Bool) {
    running?.cancelAll(where: isGone)
    // Forgotten, not only emptied: rows that come and go, each throttling under its own path,
    // left an entry apiece for as long as the store lived.
    if hasThrottled, throttles.keys.contains(where: { isGone($0.path) }) {
      throttles = throttles.filter { !isGone($0.key.path) }
    }
  }

  // MARK: Throttling

  private struct ThrottleState {
    /// The timing of the first throttled effect for the key, whose clock the marks come from.
    let timing: Throttling
    var lastRun: ThrottleMark?
    var pending: (effect: Effect<Action>, context: EffectContext, origin: Action)?
  }

  private func throttle(
    _ effect: Effect<Action>,
    key: CancelKey,
    _ throttling: Throttling,
    _ latest: Bool,
    _ context: inout EffectContext,
    origin: Action
  ) {
    hasThrottled = true
    var state: ThrottleState
    if let known = throttles[key] {
      state = known
    } else {
      pruneThrottles()
      state = ThrottleState(timing: throttling)
    }
    defer { throttles[key] = state }
    if state.pending != nil {
      if latest { state.pending = (effect, context, origin) }
      return
    }
    guard let lastRun = state.lastRun, throttling.isWithinInterval(lastRun) else {
      state.lastRun = state.timing.now()
      run(effect, context, origin: origin)
      return
    }
    _ = resolveTasks(&context)
    state.pending = (effect, context, origin)
    var timerContext = context
    timerContext.keys.append(key)
    let fire: @MainActor @Sendable () -> Void = { [weak self] in self?.runPendingThrottled(key) }
    launch(priority: nil, timerContext, origin: origin) { _ in
      do { try await throttling.sleepUntilIntervalEnds(lastRun) } catch { return }
      await fire()
    }
  }

  /// Drops the ids whose interval has passed with nothing waiting, which hold back nothing, once
  /// their number has doubled since the last time: ids made from values (a query, a row's id)
  /// otherwise gathered for as long as the store lived.
  private func pruneThrottles() {
    guard throttles.count >= max(16, 2 * throttlesAfterPruning) else { return }
    throttles = throttles.filter { _, state in
      guard state.pending == nil, let lastRun = state.lastRun else { return true }
      return state.timing.isWithinInterval(lastRun)
    }
    throttlesAfterPruning = throttles.count
  }

  /// Lists this store's cancellable effects in the table of work outside stores, under `path`,
  /// and cancels its ids there: for the stores `Effect.actions` makes, which run an effect on
  /// its own, as TCA runs every effect.
  func listEffectsOutsideStores(path: NavigationIDPath) {
    running = RunningEffects(detachedPath: path)
  }

  /// How many `withTaskCancellation(id:)` operations the store's effects have running.
  package var cancellableOperationCount: Int { running?.operationCount ?? 0 }

  /// How many throttled ids the store remembers.
  package var throttledIDCount: Int { throttles.count }

  private func runPendingThrottled(_ key: CancelKey) {
    guard let state = throttles[key], let pending = state.pending else { return }
    throttles[key]?.pending = nil
    throttles[key]?.lastRun = state.timing.now()
    run(pending.effect, pending.context, origin: pending.origin)
  }

  // MARK: Observation

  @usableFromInline
  package func addObserver(_ observer: CoreObserver<State>) -> Int {
    observers.add(observer)
  }

  @usableFromInline
  package func removeObserver(_ id: Int) {
    // Let go of once the list is changed: its deinitialiser may remove another observer.
    let removed = observers.remove(id)
    withExtendedLifetime(removed) {}
  }

  /// Observes nothing, so has nothing to stop.
  @usableFromInline
  package func storeIsGone() {}

  /// Tells the observers of the state the action left, while it is still being processed, as
  /// TCA does: an observer that sends is reentrant (queued and reported), and what it sent is
  /// processed, and told in a round of its own, before the outer `send` returns. Rounds never
  /// nest: a round told in the middle of another would leave that one's remaining observers to
  /// be handed the older state after the newer one.
  // Out of line, and only called when someone observes: handing over the state needs its type's
  // metadata, which a send without observers never looks up.
  @usableFromInline
  @inline(never)
  func tellObservers() {
    while true {
      // A copy, not a borrow of the stored state: an observer may release a store, whose
      // teardown reads the state.
      let state = self.state
      StoreObservers.tell(state, lone: observers.lone, list: observers)
      guard hasQueued else { return }
      drainQueue()
    }
  }

  /// Cancels every effect still running, as a test store does when its test ends.
  package func cancelAllEffects() {
    running?.cancelAll()
    for key in throttles.keys { throttles[key]?.pending = nil }
  }
}
