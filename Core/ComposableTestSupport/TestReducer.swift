import ComposableCore
@_spi(SharedChangeTracking) import ComposableSharing

/// What a test store's reducer saw: the state after the test's own action, and every action that
/// arrived from effects with the state after it.
///
/// Not isolated: the test store and the root core that runs the reducer share it, and both only
/// touch it on the main actor.
final class TestRecorder<State, Action> {
  /// Set by `TestStore.send` just before sending, so the reducer can tell the test's own action
  /// from the actions effects send while it is processed.
  var expectsTestAction = false
  var stateAfterTestAction: State?
  var sharedAfterTestAction: [SharedStep] = []
  var received: [(action: Action, state: State, shared: [SharedStep])] = []
  /// Learns which shared values each action changed.
  let tracker = SharedChangeTracker(parent: nil)
  /// Shared values changed outside any reducer (by an effect, after its action was asserted) and
  /// not asserted yet: the next step asserts them, and a store that finishes with any left fails.
  var outsideShared: [SharedChangeTracker.Change] = []

  /// Keeps the changes made since the last step as outside changes, each value's earliest
  /// "before" kept.
  func holdOutsideChanges() {
    for change in tracker.take()
    where !outsideShared.contains(where: { $0.box === change.box }) {
      outsideShared.append(change)
    }
  }

  /// The outside changes and those since, as steps ending with the values as they are now.
  func takeSharedSteps() -> [SharedStep] {
    holdOutsideChanges()
    defer { outsideShared = [] }
    return outsideShared.map { SharedStep(box: $0.box, before: $0.before, after: $0.box.anyValue) }
  }
  /// What `dismiss()` does in an effect of the feature under test, outside any child's.
  let dismissal = TestDismissal()
}

/// The test store's answer to `dismiss()` from its own feature's effects, where no parent
/// presents the feature: set once the test store exists.
@MainActor
final class TestDismissal: Sendable {
  var dismiss: (() -> Void)?

  nonisolated init() {}

  nonisolated func callAsFunction() async {
    await MainActor.run { dismiss?() }
  }
}

/// A shared value an action changed: its value before and after.
struct SharedStep {
  let box: any AnySharedBox
  let before: Any
  let after: Any
}

/// Runs the feature's reducer and records what happened, so the test store can compare it with
/// the test's assertions.
struct TestReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let recorder: TestRecorder<State, Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effects = base.reduce(into: &state, action: action)
    // Shared values are references: the state recorded here reads their latest value, so what
    // this action did to them is kept beside it.
    let shared = recorder.takeSharedSteps()
    if recorder.expectsTestAction {
      recorder.expectsTestAction = false
      recorder.stateAfterTestAction = state
      recorder.sharedAfterTestAction = shared
    } else {
      recorder.received.append((action, state, shared))
    }
    let dismissal = recorder.dismissal
    return effects.dismissingRuns { await dismissal() }
  }
}
