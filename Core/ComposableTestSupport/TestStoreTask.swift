@_spi(Internals) import CasePaths
import ComposableCore
import ComposableSharing
import ConcurrencyExtras
import CustomDump
import Foundation
import IssueReporting

/// The task `TestStore.send` returns, for awaiting or cancelling the effects of one action.
public struct TestStoreTask: Hashable, Sendable {
  // The store's own handle, whose equality (the same send's effects) this shares.
  let task: StoreTask
  /// A plain task standing in for a send's effects, as TCA's own tests make one.
  let rawValue: Task<Void, Never>?
  let timeout: Duration

  init(task: StoreTask, timeout: Duration) {
    self.task = task
    self.rawValue = nil
    self.timeout = timeout
  }

  /// A test task over a plain task, finished when the task is.
  @_spi(Canary) public init(rawValue: Task<Void, Never>?, timeout: Duration) {
    self.task = StoreTask(effects: nil)
    self.rawValue = rawValue
    self.timeout = timeout
  }

  /// Cancels the action's effects and waits for them to wind down.
  public func cancel() async {
    task.cancel()
    rawValue?.cancel()
    await task.effects?.waitAll()
    await rawValue?.value
  }

  /// Waits for the action's effects to finish, failing if they are still running after
  /// `timeout` (the store's timeout by default).
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let effects = task.effects
    guard effects != nil || rawValue != nil else { return }
    let timeout = timeout ?? self.timeout
    let isDone = Locked(false)
    Task { [rawValue] in
      await effects?.waitAll()
      await rawValue?.value
      isDone.withLock { $0 = true }
    }
    await Task.megaYield()
    var deadline = Deadline(timeout)
    while !isDone.withLock({ $0 }) {
      guard deadline.hasPassed() == false else {
        IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column).report(
          """
          Expected the task to finish, but it is still running after \(timeout).

          If an effect uses a clock, advance it far enough for the effect to finish; if it is \
          long-living, cancel it.
          """
        )
        return
      }
      await Task.yield()
    }
  }

  /// Whether the task was cancelled; a send that started no effect counts as cancelled.
  public var isCancelled: Bool {
    rawValue.map(\.isCancelled) ?? task.isCancelled
  }
}

/// A timeout that passes only when its wall-clock time is up *and* the waiting task has had a
/// fair number of turns. While a test store is alive every task shares the main serial executor,
/// so another test's long synchronous work can hold it for seconds; wall-clock time alone would
/// then fail a wait whose effect simply never got to run.
struct Deadline {
  private let end: ContinuousClock.Instant
  private var turns = 0
  static let minimumTurns = 2_000

  init(_ timeout: Duration) {
    end = ContinuousClock.now.advanced(by: timeout)
  }

  mutating func hasPassed() -> Bool {
    turns += 1
    return turns >= Self.minimumTurns && ContinuousClock.now >= end
  }
}
