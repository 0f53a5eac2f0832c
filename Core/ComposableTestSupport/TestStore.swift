@_spi(Internals) import CasePaths
import ComposableCore
@_spi(SharedChangeTracking) import ComposableSharing
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
  let core: RootCore<TestReducer<State, Action>>
  let recorder: TestRecorder<State, Action>
  /// The state as far as the test has accounted for it: the actual state after the last step the
  /// test asserted. Received actions that are not yet asserted are ahead of it.
  var snapshot: State
  /// Where each `send` was made, indexed by the tag its effects carry.
  var sendLocations: [IssueLocation] = []
  let location: IssueLocation
  var usesSerialExecution = false
  /// How many of the received actions, from the front, arrived before a `send` that found them
  /// unasserted. They stay pending, as in TCA, but the state they were recorded with is older
  /// than the test's snapshot, so receiving or skipping them asserts the action only.
  var staleReceivedCount = 0
  /// The shared values of the test, whose changes each step asserts.
  let sharedReferences: SharedReferences

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
  func featureDismissedItself() {
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

  func tearDown() {
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

}

/// A test store of any feature, written `TestStoreOf<Feature>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable
