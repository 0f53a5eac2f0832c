/// Runs `operation` so that it can be cancelled by `id`, as an effect marked
/// `cancellable(id:)` can: by `Task.cancel(id:)`, or by the feature returning `.cancel(id:)`.
///
/// Inside a `.run` effect the id belongs to the feature instance that returned the effect, as
/// `cancellable(id:)`'s does; outside every store it is listed where `Task.cancel(id:)` called
/// outside a store finds it. `cancelInFlight` first cancels what runs under the id.
public func withTaskCancellation<T: Sendable, E: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async throws(E) -> T
) async throws(E) -> T {
  let id = EffectID(id)
  if let effect = CurrentEffect.identity {
    let key = CancelKey(id: id, path: effect.path)
    if cancelInFlight { effect.registry.cancel(key) }
    let task = Task { try await operation() }
    let registration = effect.registry.register(key) { task.cancel() }
    defer { effect.registry.unregister(registration) }
    return try await awaitCancellable(task, throwing: E.self)
  }
  let path = DetachedCancellation.currentPath
  if cancelInFlight { DetachedCancellation.cancel(id, path: path) }
  let task = Task { try await operation() }
  let token = DetachedCancellation.register(id, path: path) { task.cancel() }
  defer { DetachedCancellation.unregister(token, id, path: path) }
  return try await awaitCancellable(task, throwing: E.self)
}

/// The value of `task`, made for `withTaskCancellation(id:)`'s operation; cancelling the waiting
/// task cancels it. The operation runs in a task of its own, so that cancelling it by its id
/// stops the operation and not the effect around it, which goes on with its `CancellationError`.
private func awaitCancellable<T: Sendable, E: Error>(
  _ task: Task<T, any Error>, throwing: E.Type
) async throws(E) -> T {
  let result = await withTaskCancellationHandler {
    await task.result
  } onCancel: {
    task.cancel()
  }
  switch result {
  case .success(let value): return value
  // The task throws only what the operation throws.
  case .failure(let error): throw error as! E
  }
}

extension Task where Success == Never, Failure == Never {
  /// Cancels what runs under `id`: inside a `.run` effect, the effects and
  /// `withTaskCancellation(id:)` operations of that effect's feature instance; outside every
  /// store, the operations and `Effect.actions` runs that are outside stores too.
  public static func cancel(id: some Hashable & Sendable) {
    guard let effect = CurrentEffect.identity else {
      DetachedCancellation.cancel(EffectID(id), path: DetachedCancellation.currentPath)
      return
    }
    effect.registry.cancel(CancelKey(id: EffectID(id), path: effect.path))
  }
}

/// The effect the current task runs: its store's running effects, and the feature instance that
/// returned it.
protocol RunningEffectIdentity: AnyObject, Sendable {
  var registry: any CancellationRegistry { get }
  /// Where in the reducer tree the effect was returned: what qualifies its ids.
  var path: [EffectScope] { get }
}

/// Bound while an effect's operation runs, and in the tasks it makes.
enum CurrentEffect {
  @TaskLocal static var identity: (any RunningEffectIdentity)?
}

/// A store's effects, as cancellation by id inside an effect reaches them.
protocol CancellationRegistry: AnyObject, Sendable {
  func cancel(_ key: CancelKey)
  func register(_ key: CancelKey, cancel: @escaping @Sendable () -> Void) -> Int
  func unregister(_ id: Int)
}
