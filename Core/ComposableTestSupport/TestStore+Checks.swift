@_spi(Internals) import CasePaths
import ComposableCore
@_spi(SharedChangeTracking) import ComposableSharing
import ConcurrencyExtras
import CustomDump
import Foundation
import IssueReporting

extension TestStore {

  func expectState(
    previous: State,
    actual: State,
    shared: [SharedStep],
    update: ((inout State) throws -> Void)?,
    step: String,
    action: Action,
    stackIDs: StackElementIDGenerator,
    at location: IssueLocation
  ) {
    // Describing the action and diffing states reflect over them: only a failure pays for it.
    var header: String { "\(step) \(describeValue(action).indenting(by: 2).trimmingLeadingSpaces)" }
    let isExhaustive = exhaustivity == .on
    // Exhaustively, the closure turns the state before the step into the state after it;
    // otherwise it only states what it cares about, applied to the state after it.
    var expected = isExhaustive ? previous : actual
    let sharedOutcome: SharedOutcome
    do {
      sharedOutcome = try assertShared(shared) {
        try asserting(stackIDs: stackIDs.copy()) { try update?(&expected) }
      }
    } catch {
      location.report("Threw error: \(error)")
      return
    }
    for mismatch in sharedOutcome.mismatches {
      let what =
        mismatch.asserted
        ? "A shared state change does not match expectation after \(header)"
        : "Shared state was not expected to change, but a change occurred after \(header)"
      location.report(
        "\(what): \(mismatch.key)\n\n\(mismatch.difference.indenting(by: 2))\n\n"
          + "(Expected: −, Actual: +)"
      )
    }
    if expected != actual {
      location.report(stateMismatch(expected: expected, actual: actual, asserted: update != nil))
      return
    }
    guard let update else { return }
    let noChange = """
      Expected state to change, but no change occurred.

      The trailing closure made no observable modifications to state. If no change to state is \
      expected, omit the trailing closure.
      """
    if isExhaustive {
      if expected == previous, !sharedOutcome.assertedAny { location.report(noChange) }
      return
    }
    // What an exhaustive store would have said: shown as skipped, if skipped assertions are.
    guard case .off(showSkippedAssertions: true) = exhaustivity else { return }
    var expectedFromPrevious = previous
    try? asserting(stackIDs: stackIDs.copy()) { try update(&expectedFromPrevious) }
    if expectedFromPrevious != actual {
      reportSkipped(
        stateMismatch(expected: expectedFromPrevious, actual: actual, asserted: true),
        at: location)
    } else if expectedFromPrevious == previous {
      reportSkipped(noChange, at: location)
    }
  }

  /// The failure for a state that is not the one the test expected.
  func stateMismatch(expected: State, actual: State, asserted: Bool) -> String {
    let heading =
      asserted
      ? "A state change does not match expectation"
      : "State was not expected to change, but a change occurred"
    let difference =
      diff(expected, actual, format: .proportional)
      .map { "\($0.indenting(by: 4))\n\n(Expected: −, Actual: +)" }
        ?? """
        Expected:
        \(String(describing: expected).indenting(by: 2))

        Actual:
        \(String(describing: actual).indenting(by: 2))
        """
    return "\(heading).\n\n\(difference)"
  }

  /// Runs an assertion closure as TCA's test store does: with the feature's dependencies, stack
  /// ids handed out from `stackIDs` (where the step started, so an element the closure appends
  /// gets the id the reducer's got), and `XCTModify` requiring a change only when the store is
  /// exhaustive.
  func asserting(
    stackIDs: StackElementIDGenerator, _ body: () throws -> Void
  ) rethrows {
    try withDependencies {
      $0 = core.dependencies
      $0.stackElementID = stackIDs
    } operation: {
      try XCTModifyLocals.$isExhaustive.withValue(exhaustivity == .on, operation: body)
    }
  }

  struct SharedOutcome {
    var mismatches: [(key: String, difference: String, asserted: Bool)] = []
    var assertedAny = false
  }

  /// Runs a step's assertion with the shared values the step changed put back to what they were
  /// before it, so the closure's `$0.$count.withLock { $0 = 1 }` writes the expected value; then
  /// compares each with what the step did, and puts the actual values back.
  func assertShared(
    _ steps: [SharedStep],
    includingOutsideChanges: Bool = false,
    _ assertion: () throws -> Void
  ) throws -> SharedOutcome {
    let tracker = recorder.tracker
    // Changes made by effects since the step's action ran belong to the next step (or to
    // `assert`), not to this one.
    var steps = steps
    if includingOutsideChanges {
      steps += recorder.takeSharedSteps()
    } else {
      recorder.holdOutsideChanges()
    }
    for step in steps { step.box.restore(step.before) }
    defer {
      for step in steps { step.box.restore(step.after) }
    }
    var actualAfter: [ObjectIdentifier: (box: any AnySharedBox, value: Any)] = [:]
    for step in steps { actualAfter[ObjectIdentifier(step.box)] = (step.box, step.after) }
    do {
      tracker.isAsserting.withLock { $0 = true }
      defer { tracker.isAsserting.withLock { $0 = false } }
      try assertion()
    } catch {
      for change in tracker.take() { change.box.restore(change.before) }
      throw error
    }
    let asserted = tracker.take()
    var outcome = SharedOutcome(assertedAny: !asserted.isEmpty)
    var assertedIDs = Set<ObjectIdentifier>()
    for change in asserted {
      let id = ObjectIdentifier(change.box)
      assertedIDs.insert(id)
      // A value the step did not change: the actual value is the one before the closure.
      if actualAfter[id] == nil { actualAfter[id] = (change.box, change.before) }
    }
    for (id, entry) in actualAfter {
      let isAsserted = assertedIDs.contains(id)
      guard isAsserted || exhaustivity == .on else { continue }
      let expected = entry.box.anyValue
      let equal =
        entry.box.isEqual(expected, entry.value)
        ?? (String(customDumping: expected) == String(customDumping: entry.value))
      if !equal {
        let difference =
          diff(expected, entry.value, format: .proportional)
          ?? "\(String(customDumping: expected)) ≠ \(String(customDumping: entry.value))"
        outcome.mismatches.append((entry.box.keyDescription, difference, isAsserted))
      }
      // Values only the closure touched go back to what they really are.
      if !steps.contains(where: { ObjectIdentifier($0.box) == id }) {
        entry.box.restore(entry.value)
      }
    }
    return outcome
  }

  /// Deals with received actions the test did not assert before its next step, and returns the
  /// state that step's assertion starts from. Exhaustively, they are a failure and stay pending;
  /// otherwise they are skipped.
  func settleUnassertedReceivedActions(
    before step: String,
    at location: IssueLocation
  ) -> State {
    guard let last = recorder.received.last else {
      return exhaustivity == .on ? snapshot : core.state
    }
    let actions = recorder.received.map(\.action)
    let count = actions.count
    guard exhaustivity == .on else {
      reportSkipped(
        "\(count) received action\(count == 1 ? " was" : "s were") skipped.\n\n"
          + dumpActions(actions),
        at: location
      )
      moveSnapshotPastReceivedActions(last: last.state)
      return core.state
    }
    location.report(
      """
      Must handle \(count) received action\(count == 1 ? "" : "s") before \(step).

      Unhandled actions: \(dumpActions(actions))
      """
    )
    staleReceivedCount = count
    // The step is asserted from where the feature actually is, so the one failure above is not
    // repeated as a state difference.
    return last.state
  }

  /// Empties the received actions, moving the snapshot to the state after the last one unless
  /// every one of them is stale (the snapshot is already past them).
  func moveSnapshotPastReceivedActions(last: State) {
    if recorder.received.count > staleReceivedCount { snapshot = last }
    recorder.received.removeAll()
    staleReceivedCount = 0
  }

  func checkUnassertedReceivedActions(at location: IssueLocation) {
    let actions = recorder.received.map(\.action)
    guard !actions.isEmpty else { return }
    reportUnlessSkipped(
      """
      The store received \(actions.count) unexpected action\(actions.count == 1 ? "" : "s").

        Unhandled actions:
      \(actions.map { "    " + debugCaseOutput($0, abbreviated: true) }.joined(separator: "\n"))

      To fix, explicitly assert against these actions using "store.receive", skip these actions \
      by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
      store: "store.exhaustivity = .off".
      """,
      at: location
    )
    if let last = recorder.received.last { moveSnapshotPastReceivedActions(last: last.state) }
  }

  /// The end of the test: unasserted received actions and effects still running are failures,
  /// each effect's at the step that started it.
  func completed() {
    checkUnassertedReceivedActions(at: location)
    checkUnassertedSharedChanges(at: location)
    var reported = Set<Int>()
    for effect in core.inFlightEffects where reported.insert(effect.tag).inserted {
      let origin =
        sendLocations.indices.contains(effect.tag) ? sendLocations[effect.tag] : location
      reportUnlessSkipped(
        """
        An effect returned for this action is still running. It must complete before the end of \
        the test.

        To fix, inspect any effects the reducer returns for this action and ensure that all of \
        them complete by the end of the test. There are a few reasons why an effect may not have \
        completed:

        If using async/await in your effect, it may need a little bit of time to properly \
        finish. To fix you can simply perform "await store.finish()" at the end of your test.

        If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", etc.), \
        make sure that you wait enough time for it to perform the effect. If you are using a test \
        clock/scheduler, advance it so that the effects may complete, or consider using an \
        immediate clock/scheduler to immediately perform the effect instead.

        If you are returning a long-living effect (timers, notifications, subjects, etc.), then \
        make sure those effects are torn down by marking the effect ".cancellable" and returning a \
        corresponding cancellation effect ("Effect.cancel") from another action, or, if your \
        effect is driven by a Combine subject, send it a completion.

        If you do not wish to assert on these effects, perform "await \
        store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
        "store.exhaustivity = .off".
        """,
        at: origin
      )
    }
  }

  /// Shared values effects changed after the last step and no step or `assert` accounted for:
  /// each a failure, with what changed. Checked when the store is released, not by `finish()`:
  /// TCA's tests assert such a change after `await store.finish()`.
  func checkUnassertedSharedChanges(at location: IssueLocation) {
    let steps = recorder.takeSharedSteps()
    for step in steps {
      let equal =
        step.box.isEqual(step.before, step.after)
        ?? (String(customDumping: step.before) == String(customDumping: step.after))
      guard !equal else { continue }
      let difference =
        diff(step.before, step.after, format: .proportional)
        ?? "\(String(customDumping: step.before)) ≠ \(String(customDumping: step.after))"
      reportUnlessSkipped(
        """
        Test store finished before asserting against changes to shared state: \
        \(step.box.keyDescription)

        \(difference.indenting(by: 2))

        (Expected: −, Actual: +)

        Invoke "TestStore.assert" at the end of this test to assert against changes to shared \
        state.
        """,
        at: location
      )
    }
  }

  /// A failure for an exhaustive store; for a non-exhaustive one, something skipped.
  func reportUnlessSkipped(_ message: @autoclosure () -> String, at location: IssueLocation) {
    if exhaustivity == .on {
      location.report(message())
    } else {
      reportSkipped(message(), at: location)
    }
  }

  /// Shows what a non-exhaustive store skipped, when it shows skipped assertions (or, with
  /// `evenWhenExhaustive`, what any store skipped because the test asked it to): as an expected
  /// issue, which the test log shows without failing the test. XCTest on Linux has no expected
  /// failures, so there it is printed. The message is only built when it is shown: describing
  /// actions and diffing states reflect over them.
  func reportSkipped(
    _ message: @autoclosure () -> String,
    at location: IssueLocation,
    evenWhenExhaustive: Bool = false
  ) {
    switch exhaustivity {
    case .off(showSkippedAssertions: true): break
    case .on where evenWhenExhaustive: break
    default: return
    }
    let message = "Skipped assertions.\n\n" + message()
    #if !canImport(Darwin)
      if case .xcTest = TestContext.current {
        FileHandle.standardError.write(Data("\(location): ◽️ \(message)\n".utf8))
        return
      }
    #endif
    withExpectedIssue {
      location.report(message)
    }
  }

  /// Lets the effects in flight run up to their first suspension, so that a test can, say,
  /// advance a clock they are waiting on. With none in flight there is nothing to wait for, and
  /// yielding would only cost time.
  func letEffectsStart() async {
    guard core.hasEffectsInFlight else { return }
    await Task.megaYield()
  }

  func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    // An action already received needs no waiting; effects are only ever awaited for what has
    // not arrived yet.
    if condition() { return true }
    await Task.megaYield()
    var deadline = Deadline(timeout)
    while !condition() {
      guard !deadline.hasPassed() else { return condition() }
      await Task.yield()
    }
    return true
  }
}

func describeValue(_ value: Any) -> String {
  String(customDumping: value)
}

/// Actions as a dump of the list of them: `[\n  [0]: .second\n]`, each abbreviated to its case
/// where its type is the list's.
func dumpActions<A>(_ actions: [A]) -> String {
  String(customDumping: actions)
}

extension String {
  var trimmingLeadingSpaces: String {
    String(drop { $0 == " " })
  }
}
