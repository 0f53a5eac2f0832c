import ComposableCore
import ComposableTestSupport
import CounterFeature
import NumberFactClient
import Testing

@MainActor
struct CounterTests {
  func makeStore(
    _ state: Counter.State = Counter.State(),
    clock: TestClock<Duration> = TestClock(),
    fetch: @escaping @Sendable (Int) async throws -> String = { _ in "unused" }
  ) -> TestStoreOf<Counter> {
    TestStore(initialState: state) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
      $0.numberFact.fetch = fetch
    }
  }

  @Test func incrementDecrementReset() async {
    let store = makeStore()
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.incrementButtonTapped) { $0.count = 2 }
    await store.send(.decrementButtonTapped) { $0.count = 1 }
    await store.send(.decrementButtonTapped) { $0.count = 0 }
    await store.send(.decrementButtonTapped) { $0.count = -1 }
    await store.send(.resetButtonTapped) { $0.count = 0 }
  }

  @Test func timerCountsUpEverySecondUntilStopped() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTicked) { $0.count = 1 }
    await clock.advance(by: .seconds(2))
    await store.receive(\.timerTicked) { $0.count = 2 }
    await store.receive(\.timerTicked) { $0.count = 3 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
    await clock.advance(by: .seconds(10))
  }

  @Test func changingTheIntervalWhileRunningRestartsTheTimer() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.advance(by: .milliseconds(900))
    await store.send(.timerIntervalSelected(.threeSeconds)) {
      $0.$timerInterval.withLock { $0 = .threeSeconds }
    }
    // The old one-second timer is gone: nothing at 1 s or 2 s after the change.
    await clock.advance(by: .seconds(2))
    await clock.advance(by: .milliseconds(999))
    await clock.advance(by: .milliseconds(1))
    await store.receive(\.timerTicked) { $0.count = 1 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
  }

  @Test func theIntervalIsAPreferenceEveryCounterShares() async {
    let store = makeStore(clock: TestClock())
    await store.send(.timerIntervalSelected(.threeSeconds)) {
      $0.$timerInterval.withLock { $0 = .threeSeconds }
    }
    // Another counter, or the app after a restart, starts from the chosen interval.
    #expect(Counter.State().timerInterval == .threeSeconds)
    @Dependency(\.defaultFileStorage) var files
    @Dependency(\.appStorageURL) var settings
    let stored = (files as? InMemoryFileStorage)?.data(at: settings)
    #expect(stored.map { String(decoding: $0, as: UTF8.self) } == #"{"counter.timerInterval":3}"#)
  }

  @Test func changingTheIntervalWhileStoppedStartsNothing() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.timerIntervalSelected(.twoSeconds)) {
      $0.$timerInterval.withLock { $0 = .twoSeconds }
    }
    await clock.advance(by: .seconds(5))
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(\.timerTicked) { $0.count = 1 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
  }

  @Test func theTimerNeverRunsTwice() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await store.send(.timerIntervalSelected(.oneSecond))
    await store.send(.timerIntervalSelected(.oneSecond))
    await clock.advance(by: .seconds(1))
    // One tick, not three.
    await store.receive(\.timerTicked) { $0.count = 1 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
  }

  @Test func factIsShownInAnAlert() async {
    let store = makeStore(Counter.State(count: 42)) { "\($0) is the answer." }
    await store.send(.factButtonTapped) { $0.factNumber = 42 }
    await store.receive(\.factResponse.success, "42 is the answer.") {
      $0.factNumber = nil
      $0.alert = AlertState {
        TextState("Fact about 42")
      } message: {
        TextState("42 is the answer.")
      }
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func theFactsAlertNamesTheNumberAskedAbout() async {
    let clock = TestClock()
    let store = makeStore(Counter.State(count: 5), clock: clock) { number in
      try await clock.sleep(for: .seconds(1))
      return "\(number) is five."
    }
    await store.send(.factButtonTapped) { $0.factNumber = 5 }
    // The count moves on while the answer is on its way.
    await store.send(.incrementButtonTapped) { $0.count = 6 }
    await clock.advance(by: .seconds(1))
    await store.receive(\.factResponse.success, "5 is five.") {
      $0.factNumber = nil
      $0.alert = AlertState {
        TextState("Fact about 5")
      } message: {
        TextState("5 is five.")
      }
    }
  }

  @Test func aFailedFactShowsTheErrorAndCanBeRetried() async {
    let attempts = LockIsolated(0)
    let store = makeStore(Counter.State(count: 7)) { number in
      let attempt = attempts.withValue {
        $0 += 1
        return $0
      }
      if attempt == 1 { throw NumberFactError.httpStatus(503) }
      return "\(number) is lucky."
    }
    await store.send(.factButtonTapped) { $0.factNumber = 7 }
    await store.receive(\.factResponse.failure, .httpStatus(503)) {
      $0.factNumber = nil
      $0.alert = .failure(
        title: "Could not get a fact",
        message: TextState("The number facts server answered with status 503."),
        retry: .retryButtonTapped
      )
    }
    await store.send(\.alert.retryButtonTapped) { $0.alert = nil }
    await store.receive(\.factButtonTapped) { $0.factNumber = 7 }
    await store.receive(\.factResponse.success, "7 is lucky.") {
      $0.factNumber = nil
      $0.alert = AlertState {
        TextState("Fact about 7")
      } message: {
        TextState("7 is lucky.")
      }
    }
  }

  @Test func anUnexpectedErrorIsReportedAsOffline() async {
    struct Unexpected: Error {}
    let store = makeStore { _ in throw Unexpected() }
    await store.send(.factButtonTapped) { $0.factNumber = 0 }
    await store.receive(\.factResponse.failure, .offline) {
      $0.factNumber = nil
      $0.alert = .failure(
        title: "Could not get a fact",
        message: TextState("The number facts server could not be reached."),
        retry: .retryButtonTapped
      )
    }
  }

  @Test func aSecondRequestCancelsTheFirst() async {
    let clock = TestClock()
    let store = makeStore(clock: clock) { number in
      try await clock.sleep(for: .seconds(number == 0 ? 5 : 1))
      return "fact \(number)"
    }
    await store.send(.factButtonTapped) { $0.factNumber = 0 }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.factButtonTapped) { $0.factNumber = 1 }
    await clock.advance(by: .seconds(5))
    // Only the second answer arrives; the first request was cancelled.
    await store.receive(\.factResponse.success, "fact 1") {
      $0.factNumber = nil
      $0.alert = AlertState {
        TextState("Fact about 1")
      } message: {
        TextState("fact 1")
      }
    }
  }
}
