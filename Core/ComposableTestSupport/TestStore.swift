@_spi(Internals) import CasePaths
import ComposableCore
import ComposableSharing
import ConcurrencyExtras
import CustomDump
import Foundation
import IssueReporting

/// Tests a feature exhaustively: every action the test sends, every state change, every action
/// effects send back, and every effect still running at the end must be accounted for.
///
/// ```swift
/// let store = TestStore(initialState: Counter.State()) { Counter() }
/// await store.send(.incrementButtonTapped) { $0.count = 1 }
/// await store.receive(\.factResponse) { $0.fact = "1 is a number" }
/// ```
///
/// Failures go through IssueReporting, so they fail the running Swift Testing test or XCTest
/// case, at the line of the step that failed, with a `−` expected / `+` actual diff.
@MainActor
public final class TestStore<State: Equatable, Action> {
  private let core: RootCore<TestReducer<State, Action>>
  private let recorder: TestRecorder<State, Action>
  /// The state as far as the test has accounted for it: the actual state after the last step the
  /// test asserted. Received actions that are not yet asserted are ahead of it.
  private var snapshot: State
  /// Where each `send` was made, indexed by the tag its effects carry.
  private var sendLocations: [IssueLocation] = []
  private let location: IssueLocation
  private var usesSerialExecution = false
  /// How many of the received actions, from the front, arrived before a `send` that found them
  /// unasserted. They stay pending, as in TCA, but the state they were recorded with is older
  /// than the test's snapshot, so receiving or skipping them asserts the action only.
  private var staleReceivedCount = 0
  /// The shared values of the test, whose changes each step asserts.
  private let sharedReferences: SharedReferences

  /// Whether the feature dismissed itself, calling `dismiss()` from one of its own effects; its
  /// effects are then cancelled and it takes no more actions.
  public private(set) var isDismissed = false

  /// How strictly the store checks the test; `.on` by default.
  public var exhaustivity: Exhaustivity = .on

  /// How long `receive` and `finish` wait by default before they fail.
  public var timeout: Duration = .seconds(1)

  /// Whether effects run on the main serial executor, which makes their order repeatable; on by
  /// default, as in TCA. Turn it off for a test whose effects block a thread while they wait.
  public var useMainSerialExecutor: Bool {
    get { usesSerialExecution }
    set {
      guard newValue != usesSerialExecution else { return }
      usesSerialExecution = newValue
      if newValue { SerialExecution.retain() } else { SerialExecution.release() }
    }
  }

  /// Makes a test store for a feature. Dependencies not overridden here keep their test values,
  /// so an unexpected dependency use fails the test.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let recorder = TestRecorder<State, Action>()
    let (state, reducer, dependencies) = withDependencies(prepareDependencies) {
      (initialState(), ReducerTree.making(kept: true, reducer), DependencyValues._current)
    }
    self.recorder = recorder
    self.snapshot = state
    let testReducer = TestReducer(base: reducer, recorder: recorder)
    self.core = RootCore(
      initialState: state,
      dependencies: dependencies,
      run: { testReducer.reduce(into: &$0, action: $1) }
    )
    self.location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.sharedReferences = dependencies.sharedReferences
    self.useMainSerialExecutor = true
    sharedReferences.track(with: recorder.tracker)
    recorder.dismissal.dismiss = { [weak self] in self?.featureDismissedItself() }
  }

  /// As TCA's test store: the feature is gone, so what it still had running is cancelled
  /// without failing the test.
  private func featureDismissedItself() {
    isDismissed = true
    core.cancelAllEffects()
  }

  // Not an isolated deinit: those run without the releasing task's task-locals, and the test
  // framework finds the running test through them. A test store is usually released on the main
  // actor (which, on Linux, is the main queue, not always the main thread); a test function that
  // is not isolated to it (`let store = await TestStore(…)` in a plain `async` XCTest method, as
  // TCA's own tests are written) releases it elsewhere, and the teardown then waits for the main
  // queue, as TCA's test store does.
  deinit {
    if MainQueue.isCurrent {
      MainActor.assumeIsolated { tearDown() }
    } else {
      DispatchQueue.main.sync { MainActor.assumeIsolated { tearDown() } }
    }
  }

  private func tearDown() {
    completed()
    core.cancelAllEffects()
    useMainSerialExecutor = false
    sharedReferences.track(with: nil)
  }

  /// The state as the test has accounted for it: after the last step it sent, received or
  /// skipped. Inside a step's assertion closure, the state before that step. Changes from actions
  /// received but not yet asserted are not in it, as in TCA.
  public var state: State {
    snapshot
  }

  /// The dependencies the feature runs with; change them between steps to change what later
  /// actions and effects see.
  public var dependencies: DependencyValues {
    get { core.dependencies }
    set { core.dependencies = newValue }
  }

  /// Runs `operation` with a different exhaustivity, restoring the current one afterwards.
  @discardableResult
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try await operation()
  }

  // MARK: Sending

  /// Sends an action and asserts how it changes state: `assert` receives the state before the
  /// action and must turn it into the state after it.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !isDismissed else {
      location.report("Can't send action to dismissed test store.")
      return TestStoreTask(task: StoreTask(effects: nil), timeout: timeout)
    }
    let previous = settleUnassertedReceivedActions(before: "sending an action", at: location)
    core.sendTag = sendLocations.count
    sendLocations.append(location)
    let stackIDsBefore = core.dependencies.stackElementID.copy()
    recorder.expectsTestAction = true
    let task = core.send(action)
    recorder.expectsTestAction = false
    let actual = recorder.stateAfterTestAction ?? core.state
    let shared = recorder.sharedAfterTestAction
    recorder.stateAfterTestAction = nil
    recorder.sharedAfterTestAction = []
    expectState(
      previous: previous,
      actual: actual,
      shared: shared,
      update: updateStateToExpectedResult,
      step: "sending",
      action: action,
      stackIDs: stackIDsBefore,
      at: location
    )
    snapshot = actual
    await letEffectsStart()
    return TestStoreTask(task: StoreTask(effects: task), timeout: timeout)
  }

  /// Sends the action at a case key path whose case carries no value, as `send(_:assert:)`
  /// does: `await store.send(\.view.saveButtonTapped) { $0.isSaving = true }`.
  @discardableResult
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      action(),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Sends the action at a case key path carrying `value`: `await store.send(\.binding.email,
  /// "a@b.c")`, `await store.send(\.path[id: 0].detail.nameChanged, "Ada")`.
  @discardableResult
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      action(value),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  // MARK: Receiving

  /// Asserts that an effect sent an action in the case at `actionCase`, and how it changed state.
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receiveAction(
      matching: { $0[case: actionCase] != nil },
      failure: Self.noCaseMatched,
      unexpected: { describeValue($0).indenting(by: 2) },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action in the case a case path extracts, as TCA 1.0–1.3
  /// tests wrote it (`receive(/Action.response)`).
  @_disfavoredOverload
  @available(*, deprecated, message: "Use the version of this method with case key paths, instead.")
  public func receive<Value>(
    _ actionCase: AnyCasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: { actionCase.extract(from: $0) != nil },
      failure: Self.noCaseMatched,
      unexpected: { describeValue($0).indenting(by: 2) },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent the action at `actionCase` carrying `value`, and how it changed
  /// state.
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: CasePathable {
    await receiveAction(
      matching: { $0[case: actionCase] == value },
      failure: Self.noCaseMatched,
      unexpected: { received in
        // The same case with another value is told as a difference from the expected action.
        guard received[case: actionCase] != nil,
          let difference = diff(actionCase(value), received, format: .proportional)
        else { return describeValue(received).indenting(by: 2) }
        return "\(difference.indenting(by: 2))\n\n(Expected: −, Actual: +)"
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent exactly `expectedAction`, and how it changed state.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receiveAction(
      matching: { $0 == expectedAction },
      failure: "Expected to receive the following action, but didn't:\n\n"
        + describeValue(expectedAction).indenting(by: 2),
      unexpected: { received in
        guard let difference = diff(expectedAction, received, format: .proportional) else {
          return """
            Expected:
            \(String(describing: expectedAction).indenting(by: 2))

            Received:
            \(String(describing: received).indenting(by: 2))
            """
        }
        return "\(difference.indenting(by: 4))\n\n(Expected: −, Received: +)"
      },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action `isMatching` accepts, and how it changed state.
  public func receive(
    _ isMatching: (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      failure: "Expected to receive an action matching predicate, but didn't get one.",
      unexpected: { describeValue($0).indenting(by: 2) },
      timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private static var noCaseMatched: String {
    "Expected to receive an action matching case path, but didn't get one."
  }

  /// Waits for an action while effects that could send one are running, then asserts the first
  /// one received (non-exhaustively, the first that matches, skipping those before it). The
  /// messages are only described when a failure is reported: dumping an action costs more than
  /// the whole receive otherwise.
  private func receiveAction(
    matching isMatching: (Action) -> Bool,
    failure: @autoclosure () -> String,
    unexpected: (Action) -> String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: IssueLocation
  ) async {
    let isExhaustive = exhaustivity == .on
    // With no effect running, nothing more can arrive: what has arrived is all there is.
    if core.hasEffectsInFlight {
      let timeout = timeout ?? self.timeout
      let arrived = await waitUntil(timeout: timeout) {
        isExhaustive
          ? !recorder.received.isEmpty : recorder.received.contains { isMatching($0.action) }
      }
      if !arrived {
        location.report(
          """
          Expected to receive \(isExhaustive ? "an action" : "a matching action"), but received \
          none\(timeout > .zero ? " after \(timeout)" : "").

          \(effectsInFlightSuggestion(timeout: timeout))
          """
        )
      }
    }
    guard !recorder.received.isEmpty else {
      location.report(failure())
      return
    }

    if !isExhaustive {
      guard let index = recorder.received.firstIndex(where: { isMatching($0.action) }) else {
        location.report(failure())
        return
      }
      if index > 0 {
        let skipped = recorder.received.prefix(index).map(\.action)
        reportSkipped(
          "\(skipped.count) received action\(skipped.count == 1 ? " was" : "s were") skipped.\n\n"
            + dumpActions(skipped),
          at: location
        )
        snapshot = recorder.received[index - 1].state
        recorder.received.removeFirst(index)
        staleReceivedCount = max(0, staleReceivedCount - index)
      }
    }

    let (action, actual, shared) = recorder.received.removeFirst()
    let isStale = staleReceivedCount > 0
    if isStale { staleReceivedCount -= 1 }
    if !isMatching(action) {
      location.report("Received unexpected action:\n\n\(unexpected(action))")
    } else if !isStale {
      expectState(
        previous: snapshot,
        actual: actual,
        shared: shared,
        update: update,
        step: "receiving",
        action: action,
        stackIDs: core.dependencies.stackElementID.copy(),
        at: location
      )
    }
    if !isStale { snapshot = actual }
    await letEffectsStart()
  }

  /// What a failure to receive in time suggests, depending on whether anything could still send.
  private func effectsInFlightSuggestion(timeout: Duration) -> String {
    guard core.hasEffectsInFlight else {
      return """
        There are no in-flight effects that could deliver this action. Could the effect you \
        expected to deliver this action have been cancelled?
        """
    }
    let timeoutAdvice =
      timeout != self.timeout
      ? #"try increasing the duration of this assertion's "timeout""#
      : #"configure this assertion with an explicit "timeout""#
    return """
      There are effects in-flight. If the effect that delivers this action uses a \
      clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
      enough time for it to perform the effect. If you are using a test clock/scheduler, advance \
      it so that the effects may complete, or consider using an immediate clock/scheduler to \
      immediately perform the effect instead.

      If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
      \(timeoutAdvice).
      """
  }

  // MARK: Skipping and finishing

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

  // MARK: Checks

  private func expectState(
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
  private func stateMismatch(expected: State, actual: State, asserted: Bool) -> String {
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
  private func asserting(
    stackIDs: StackElementIDGenerator, _ body: () throws -> Void
  ) rethrows {
    try withDependencies {
      $0 = core.dependencies
      $0.stackElementID = stackIDs
    } operation: {
      try XCTModifyLocals.$isExhaustive.withValue(exhaustivity == .on, operation: body)
    }
  }

  private struct SharedOutcome {
    var mismatches: [(key: String, difference: String, asserted: Bool)] = []
    var assertedAny = false
  }

  /// Runs a step's assertion with the shared values the step changed put back to what they were
  /// before it, so the closure's `$0.$count.withLock { $0 = 1 }` writes the expected value; then
  /// compares each with what the step did, and puts the actual values back.
  private func assertShared(
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
  private func settleUnassertedReceivedActions(
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
  private func moveSnapshotPastReceivedActions(last: State) {
    if recorder.received.count > staleReceivedCount { snapshot = last }
    recorder.received.removeAll()
    staleReceivedCount = 0
  }

  private func checkUnassertedReceivedActions(at location: IssueLocation) {
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
  private func completed() {
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
  private func checkUnassertedSharedChanges(at location: IssueLocation) {
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
  private func reportUnlessSkipped(_ message: @autoclosure () -> String, at location: IssueLocation)
  {
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
  private func reportSkipped(
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
  private func letEffectsStart() async {
    guard core.hasEffectsInFlight else { return }
    await Task.megaYield()
  }

  private func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
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

/// A test store of any feature, written `TestStoreOf<Feature>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

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

private func describeValue(_ value: Any) -> String {
  String(customDumping: value)
}

/// Actions as a dump of the list of them: `[\n  [0]: .second\n]`, each abbreviated to its case
/// where its type is the list's.
private func dumpActions<A>(_ actions: [A]) -> String {
  String(customDumping: actions)
}

extension String {
  fileprivate var trimmingLeadingSpaces: String {
    String(drop { $0 == " " })
  }
}

/// Whether the code running now runs on the main queue, the main actor's executor, whichever
/// thread serves it: told by a marker set on the queue once.
enum MainQueue {
  private static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) == true
  }
}
