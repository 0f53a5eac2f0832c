import ComposableCore
import ComposableTestSupport
import Testing

/// Every way an exhaustive test can fail is reported, in the words of TCA's test store (which
/// tests match), with the `−` expected / `+` actual diff for state.
@MainActor
struct TestStoreFailureTests {
  @Test func wrongStateAssertion() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      matches(
        issue,
        "A state change does not match expectation.",
        "−   count: 2",
        "+   count: 1",
        "(Expected: −, Actual: +)"
      )
    }
  }

  @Test func unassertedStateChange() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.increment)
    } matching: { issue in
      matches(
        issue,
        "State was not expected to change, but a change occurred.",
        "−   count: 0",
        "+   count: 1"
      )
    }
  }

  @Test func assertionClosureThatChangesNothing() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.noop) { _ in }
    } matching: { issue in
      matches(
        issue, "Expected state to change, but no change occurred.",
        "If no change to state is expected, omit the trailing closure.")
    }
  }

  @Test func sendingWithUnassertedReceivedActions() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("ab")) { $0.label = "ab" }
    await withKnownIssue {
      await store.send(.increment) { $0.count = 1 }
    } matching: { issue in
      matches(
        issue, "Must handle 1 received action before sending an action.",
        "Unhandled actions: [\n  [0]: .echo(2)\n]")
    }
    // The action stays pending, as in TCA: receiving it now is no further failure, and the state
    // it made is not asserted twice.
    await store.receive(\.echo, 2)
    await store.send(.increment) { $0.count = 2 }
    #expect(store.state.echoes == [2])
  }

  @Test func skippingActionsLeftPendingByAFailedSend() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("ab")) { $0.label = "ab" }
    await withKnownIssue {
      await store.send(.increment) { $0.count = 1 }
    } matching: { issue in
      matches(issue, "Must handle 1 received action before sending an action")
    }
    await store.skipReceivedActions()
    // The snapshot stays at the state after the send: only the count changes from here.
    await store.send(.increment) { $0.count = 2 }
  }

  @Test func receivedActionsLeftAtTheEndOfTheTest() async {
    await withKnownIssue {
      let store = TestStore(initialState: Tally.State()) { Tally() }
      await store.send(.rename("abc")) { $0.label = "abc" }
    } matching: { issue in
      matches(issue, "The store received 1 unexpected action.", "Unhandled actions:\n    .echo")
    }
  }

  @Test func effectStillRunningAtTheEndOfTheTest() async {
    await withKnownIssue {
      let store = makeTallyStore()
      await store.send(.forever)
    } matching: { issue in
      matches(
        issue,
        "An effect returned for this action is still running. It must complete before the end of "
          + "the test.",
        "perform \"await store.skipInFlightEffects()\""
      ) && issue.sourceLocation?.fileName == "TestStoreFailureTests.swift"
    }
  }

  @Test func receiveTimesOut() async {
    let store = makeTallyStore()
    await store.send(.delayedEcho)
    // Two issues, as in TCA: nothing arrived in time, and so nothing matched.
    await withKnownIssue {
      await store.receive(\.echo, timeout: .milliseconds(50))
    } matching: { issue in
      matches(
        issue,
        "Expected to receive an action, but received none after 0.05 seconds.",
        "There are effects in-flight.",
        "try increasing the duration of this assertion's \"timeout\""
      )
        || matches(issue, "Expected to receive an action matching case path, but didn't get one.")
    }
    await store.skipInFlightEffects()
  }

  @Test func receiveOfTheWrongAction() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("ab")) { $0.label = "ab" }
    await withKnownIssue {
      await store.receive(.echo(3)) { $0.echoes = [2] }
    } matching: { issue in
      matches(
        issue,
        "Received unexpected action:\n\n",
        "    − Tally.Action.echo(3)",
        "    + Tally.Action.echo(2)",
        "(Expected: −, Received: +)"
      )
    }
  }

  @Test func receiveOfTheRightCaseWithTheWrongValue() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("ab")) { $0.label = "ab" }
    await withKnownIssue {
      await store.receive(\.echo, 5) { $0.echoes = [2] }
    } matching: { issue in
      matches(
        issue, "Received unexpected action:", "  − Tally.Action.echo(5)",
        "  + Tally.Action.echo(2)",
        "(Expected: −, Actual: +)")
    }
  }

  @Test func wrongStateAssertionOnReceive() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("ab")) { $0.label = "ab" }
    await withKnownIssue {
      await store.receive(\.echo) { $0.echoes = [99] }
    } matching: { issue in
      matches(
        issue,
        "A state change does not match expectation.",
        "−     [0]: 99",
        "+     [0]: 2"
      )
    }
  }

  @Test func finishWithEffectsStillRunning() async {
    let store = makeTallyStore()
    await store.send(.delayedEcho)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(50))
    } matching: { issue in
      matches(
        issue,
        "Expected effects to finish, but there are still effects in-flight after 0.05 seconds.")
    }
    await store.skipInFlightEffects()
  }

  @Test func finishWithUnassertedReceivedActions() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("a")) { $0.label = "a" }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      matches(issue, "The store received 1 unexpected action.", "    .echo")
    }
  }

  @Test func taskFinishTimesOut() async {
    let store = makeTallyStore()
    let task = await store.send(.forever)
    await withKnownIssue {
      await task.finish(timeout: .milliseconds(50))
    } matching: { issue in
      matches(issue, "Expected the task to finish, but it is still running after 0.05 seconds")
    }
    await task.cancel()
  }

  @Test func skippingWhenThereIsNothingToSkip() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.skipReceivedActions()
      await store.skipInFlightEffects()
    } matching: { issue in
      matches(issue, "There were no received actions to skip.")
        || matches(issue, "There were no in-flight effects to skip.")
    }
    await store.skipReceivedActions(strict: false)
    await store.skipInFlightEffects(strict: false)
  }

  @Test func assertAgainstTheWrongState() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    withKnownIssue {
      store.assert { $0.label = "nope" }
    } matching: { issue in
      matches(
        issue, "A state change does not match expectation.", "−   label: \"nope\"",
        "+   label: \"\"")
    }
  }

  @Test func nonExhaustiveStoresStillCatchWrongAssertions() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.rename("abc")) { $0.label = "abd" }
    } matching: { issue in
      matches(
        issue, "A state change does not match expectation", "−   label: \"abd\"",
        "+   label: \"abc\"")
    }
  }

  @Test func unimplementedDependenciesFailTheTest() async {
    let clock = TestClock()
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await withKnownIssue {
      await store.send(.queryChanged("q")) { $0.query = "q" }
      await clock.advance(by: .milliseconds(300))
      await store.receive(\.searchResponse.success, [])
    } matching: { issue in
      matches(issue, "Unimplemented: SearchClient.search", "Invoked with:", "\"q\"")
    }
  }
}

/// Whether a reported issue's text contains every fragment.
func matches(_ issue: Issue, _ fragments: String...) -> Bool {
  fragments.allSatisfy { issue.description.contains($0) }
}
