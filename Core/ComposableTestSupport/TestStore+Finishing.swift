@_spi(Internals) import CasePaths
import ComposableCore
import ComposableSharing
import ConcurrencyExtras
import CustomDump
import Foundation
import IssueReporting

extension TestStore {

  /// Discards received actions the test does not want to assert, and moves the expected state
  /// past them. With `strict`, having nothing to skip is a failure.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await Task.megaYield()
    guard let last = recorder.received.last else {
      if strict { location.report("There were no received actions to skip.") }
      return
    }
    let actions = recorder.received.map(\.action)
    // Shown as skipped even by an exhaustive store: skipping is the test's own choice.
    reportSkipped(
      "\(actions.count) received action\(actions.count == 1 ? " was" : "s were") skipped.\n\n"
        + (actions.count == 1 ? describeValue(actions[0]) : dumpActions(actions)),
      at: location,
      evenWhenExhaustive: true
    )
    moveSnapshotPastReceivedActions(last: last.state)
  }

  /// Stops waiting for and reporting the effects still running, for tests that do not care how
  /// long-living effects end; as TCA's does, it does not cancel them, so what they send later
  /// still arrives (the store cancels them when it is released). With `strict`, having nothing
  /// to skip is a failure.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await Task.megaYield()
    let origins = core.inFlightEffects.map(\.origin)
    guard !origins.isEmpty else {
      if strict { location.report("There were no in-flight effects to skip.") }
      return
    }
    reportSkipped(
      """
      \(origins.count) in-flight effect\(origins.count == 1 ? " was" : "s were") cancelled, \
      originating from:

      \(origins.count == 1 ? describeValue(origins[0]) : dumpActions(origins))
      """,
      at: location,
      evenWhenExhaustive: true
    )
    core.forgetEffectsInFlight()
    await Task.megaYield()
  }

  /// Checks that every received action was asserted, then waits for every effect to finish.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    checkUnassertedReceivedActions(at: location)
    let timeout = timeout ?? self.timeout
    let finished = await waitUntil(timeout: timeout) { core.inFlightEffects.isEmpty }
    if !finished {
      reportUnlessSkipped(
        """
        Expected effects to finish, but there are still effects in-flight\
        \(timeout > .zero ? " after \(timeout)" : "").

        \(effectsInFlightSuggestion(timeout: timeout))
        """,
        at: location
      )
    }
  }

  /// Asserts the state as the test has accounted for it, without sending anything: useful in a
  /// non-exhaustive test, after ``skipReceivedActions(strict:fileID:filePath:line:column:)``.
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let actual = snapshot
    var expected = actual
    let sharedOutcome: SharedOutcome
    do {
      // The shared values effects changed since the last step, and those the closure writes,
      // are compared against what they hold now.
      sharedOutcome = try assertShared([], includingOutsideChanges: true) {
        try asserting(stackIDs: core.dependencies.stackElementID.copy()) {
          try updateStateToExpectedResult(&expected)
        }
      }
    } catch {
      location.report("Threw error: \(error)")
      return
    }
    for mismatch in sharedOutcome.mismatches {
      location.report(
        "Shared state does not match expectation: \(mismatch.key)\n\n"
          + "\(mismatch.difference.indenting(by: 2))\n\n(Expected: −, Actual: +)"
      )
    }
    if let difference = diff(expected, actual, format: .proportional) {
      location.report(
        "A state change does not match expectation.\n\n\(difference.indenting(by: 4))\n\n"
          + "(Expected: −, Actual: +)"
      )
    }
  }
}
