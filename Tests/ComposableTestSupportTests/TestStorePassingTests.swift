import ComposableCore
import ComposableTestSupport
import Foundation
import Testing

@MainActor
struct TestStorePassingTests {
  @Test func sendAssertsTheStateChange() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.noop)
    #expect(store.state.count == 1)
  }

  @Test func receiveByCaseKeyPath() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementAndEcho) { $0.count = 1 }
    await store.receive(\.echo) { $0.echoes = [1] }
  }

  @Test func receiveByCaseKeyPathAndValue() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementAndEcho) { $0.count = 1 }
    await store.receive(\.echo, 1) { $0.echoes = [1] }
  }

  @Test func receiveByEquatableAction() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("abc")) { $0.label = "abc" }
    await store.receive(.echo(3)) { $0.echoes = [3] }
  }

  @Test func receiveByPredicate() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("ab")) { $0.label = "ab" }
    await store.receive(
      { if case .echo(let n) = $0 { n == 2 } else { false } },
      assert: { $0.echoes = [2] }
    )
  }

  @Test func receiveWaitsForAClockDrivenEffect() async {
    let clock = TestClock()
    let store = makeTallyStore(clock: clock)
    await store.send(.delayedEcho)
    await clock.advance(by: .seconds(1))
    await store.receive(\.echo, -1, timeout: .seconds(2)) { $0.echoes = [-1] }
  }

  @Test func taskFinishAwaitsTheEffects() async {
    let clock = TestClock()
    let store = makeTallyStore(clock: clock)
    let task = await store.send(.delayedEcho)
    await clock.advance(by: .seconds(1))
    await task.finish()
    await store.receive(\.echo) { $0.echoes = [-1] }
  }

  @Test func taskCancelStopsALongLivingEffect() async {
    let store = makeTallyStore()
    let task = await store.send(.forever)
    #expect(!task.isCancelled)
    await task.cancel()
    #expect(task.isCancelled)
  }

  @Test func storeFinishWaitsForEveryEffect() async {
    let clock = TestClock()
    let store = makeTallyStore(clock: clock)
    await store.send(.delayedEcho)
    await clock.advance(by: .seconds(1))
    await store.receive(\.echo) { $0.echoes = [-1] }
    await store.finish()
  }

  @Test func skipReceivedActionsMovesThePastThem() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.rename("abcd")) { $0.label = "abcd" }
    await store.skipReceivedActions()
    #expect(store.state.echoes == [4])
    await store.send(.increment) { $0.count = 1 }
  }

  @Test func skippedEffectsAreNotReportedAtTheEnd() async {
    let store = makeTallyStore()
    await store.send(.forever)
    await store.skipInFlightEffects()
  }

  /// As in TCA, skipping an effect stops waiting for it, not the effect: what it sends later
  /// still arrives and is asserted.
  @Test func aSkippedEffectStillSends() async {
    let clock = TestClock()
    let store = makeTallyStore(clock: clock)
    await store.send(.delayedEcho)
    await store.skipInFlightEffects()
    await clock.advance(by: .seconds(1))
    await store.receive(\.echo, -1) { $0.echoes = [-1] }
  }

  @Test func assertChecksTheCurrentState() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.increment) { $0.count = 1 }
    store.assert { $0.count = 1 }
  }

  @Test func dependenciesCanChangeBetweenSteps() async {
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
      $0.searchClient.search = { _ in ["first"] }
    }
    await store.send(.queryChanged("a")) { $0.query = "a" }
    await store.receive(\.searchResponse.success) { $0.results = ["first"] }
    store.dependencies.searchClient.search = { _ in ["second"] }
    await store.send(.queryChanged("b")) { $0.query = "b" }
    await store.receive(\.searchResponse.success, ["second"]) { $0.results = ["second"] }
  }

  @Test func nonExhaustiveStoresCheckOnlyWhatIsAsserted() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.exhaustivity = .off
    await store.send(.rename("xyz"))  // label changed and an echo arrived: neither asserted
    await store.send(.increment) { $0.count = 1 }
    #expect(store.state.echoes == [3])
    #expect(store.state.label == "xyz")
  }

  @Test func nonExhaustiveReceiveSkipsToTheMatchingAction() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.rename("ab"))
    await store.send(.incrementAndEcho)
    await store.receive(\.echo, 1) { $0.echoes = [2, 1] }
  }

  @Test func withExhaustivityAppliesToTheOperationOnly() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.withExhaustivity(.off) {
      await store.send(.increment)
    }
    #expect(store.exhaustivity == .on)
    await store.send(.increment) { $0.count = 2 }
  }

  @Test func timeoutIsConfigurable() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.timeout = .milliseconds(50)
    #expect(store.timeout == .milliseconds(50))
    await store.send(.incrementAndEcho) { $0.count = 1 }
    await store.receive(\.echo) { $0.echoes = [1] }
  }
}

@MainActor
struct StopwatchTests {
  @Test func startTickStop() async {
    let clock = TestClock()
    let store = makeStopwatchStore(clock: clock)
    await store.send(.startButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) { $0.secondsElapsed = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) { $0.secondsElapsed = 2 }
    await store.send(.stopButtonTapped) { $0.isRunning = false }
    // Stopped: more time passes, nothing arrives.
    await clock.advance(by: .seconds(5))
  }

  @Test func restartingDoesNotRunTwoTimers() async {
    let clock = TestClock()
    let store = makeStopwatchStore(clock: clock)
    await store.send(.startButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(.startButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.tick) { $0.secondsElapsed = 1 }
    await store.send(.stopButtonTapped) { $0.isRunning = false }
  }
}

@MainActor
struct SearchFeatureTests {
  @Test func typingQuicklySearchesOnceForTheLastQuery() async {
    let clock = TestClock()
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.searchClient.search = { query in ["\(query) result"] }
    }
    await store.send(.queryChanged("c")) { $0.query = "c" }
    await clock.advance(by: .milliseconds(100))
    await store.send(.queryChanged("co")) { $0.query = "co" }
    await clock.advance(by: .milliseconds(100))
    await store.send(.queryChanged("com")) { $0.query = "com" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.searchResponse.success, ["com result"]) {
      $0.results = ["com result"]
    }
  }

  @Test func clearingTheQueryCancelsThePendingSearch() async {
    let clock = TestClock()
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.queryChanged("c")) { $0.query = "c" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("")) { $0.query = "" }
    // The search client is unimplemented: had the search run, the test would fail.
    await clock.advance(by: .seconds(60))
  }

  @Test func aFailedSearchShowsTheError() async {
    let clock = TestClock()
    let store = TestStore(initialState: SearchFeature.State()) {
      SearchFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.searchClient.search = { _ in throw SearchUnavailable() }
    }
    await store.send(.queryChanged("x")) { $0.query = "x" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.searchResponse.failure) { $0.errorMessage = "search is unavailable" }
  }
}

@MainActor
struct TestStoreSpeedTests {
  /// Not a benchmark (those live in Benchmarks/): a guard that the store's bookkeeping stays
  /// linear, which a quadratic slip would break by orders of magnitude.
  @Test func twoHundredSendReceivePairs() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    for n in 1...200 {
      await store.send(.incrementAndEcho) { $0.count = n }
      await store.receive(\.echo, n) { $0.echoes.append(n) }
    }
    #expect(store.state.echoes.count == 200)
  }
}
