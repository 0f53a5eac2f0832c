import ComposableCore

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
  var received: [(action: Action, state: State)] = []
}

/// Runs the feature's reducer and records what happened, so the test store can compare it with
/// the test's assertions.
struct TestReducer<State, Action>: Reducer {
  let base: any Reducer<State, Action>
  let recorder: TestRecorder<State, Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let effects = base.reduce(into: &state, action: action)
    if recorder.expectsTestAction {
      recorder.expectsTestAction = false
      recorder.stateAfterTestAction = state
    } else {
      recorder.received.append((action, state))
    }
    return effects
  }
}
