import IssueReporting

/// Runs `operation` so that it can be cancelled by `id`, as an effect marked
/// `cancellable(id:)` can: by `Task.cancel(id:)`, or by the feature returning `.cancel(id:)`.
///
/// Call it inside a `.run` effect. The id belongs to the feature instance that returned the
/// effect, as `cancellable(id:)`'s does; `cancelInFlight` first cancels what runs under it.
public func withTaskCancellation<T: Sendable, E: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async throws(E) -> T,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) async throws(E) -> T {
  guard let effect = CurrentEffect.identity else {
    reportIssue(
      """
      withTaskCancellation(id: \(id)) ran outside a store's effect, so nothing can cancel it \
      by its id. Call it inside a `.run` effect.
      """,
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return try await operation()
  }
  let key = CancelKey(id: EffectID(id), path: effect.path)
  if cancelInFlight { effect.registry.cancel(key) }
  // A task of its own, so that cancelling it by its id stops the operation and not the effect
  // around it, which goes on with the operation's `CancellationError`.
  let task = Task { try await operation() }
  let registration = effect.registry.register(key) { task.cancel() }
  defer { effect.registry.unregister(registration) }
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
  /// Cancels the effects, and the `withTaskCancellation(id:)` operations, of the current
  /// effect's feature instance that run under `id`. Call it inside a `.run` effect.
  public static func cancel(
    id: some Hashable & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let effect = CurrentEffect.identity else {
      reportIssue(
        """
        Task.cancel(id: \(id)) ran outside a store's effect, where no effect runs under an id. \
        Return `.cancel(id:)` from the reducer, or call it inside a `.run` effect.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
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
