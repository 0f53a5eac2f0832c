import ComposableCore
import ComposableTestSupport
import IssueReporting
import XCTest

/// The test store under XCTest: the same API, with failures reaching XCTest through
/// IssueReporting.
final class TestStoreXCTests: XCTestCase {
  @MainActor
  func testTimerFeatureUnderXCTest() async {
    let clock = TestClock()
    let store = makeStopwatchStore(clock: clock)
    await store.send(.startButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(3))
    await store.receive(\.tick) { $0.secondsElapsed = 1 }
    await store.receive(\.tick) { $0.secondsElapsed = 2 }
    await store.receive(\.tick) { $0.secondsElapsed = 3 }
    await store.send(.stopButtonTapped) { $0.isRunning = false }
  }

  /// Written as TCA's own tests are: a test method not isolated to the main actor, which makes,
  /// uses and releases the store from wherever it runs (here a thread of the cooperative pool, as
  /// the store does not serialise effects on the main queue). Releasing it there used to crash.
  func testAStoreMadeAndReleasedOffTheMainActor() async {
    var store: TestStoreOf<Tally>? = await TestStore(initialState: Tally.State()) { Tally() }
    await Self.runEffectsInParallel(store!)
    await store?.send(.increment) { $0.count = 1 }
    XCTAssertFalse(Thread.isMainThread)
    store = nil
  }

  @MainActor
  static func runEffectsInParallel(_ store: TestStoreOf<Tally>) {
    store.useMainSerialExecutor = false
  }

  /// corelibs XCTest has no `XCTExpectFailure`, so the failure is captured by a reporter that
  /// stands in for XCTest, and its text is checked.
  @MainActor
  func testFailureMessageUnderXCTest() async {
    let collector = CollectingReporter()
    await withIssueReporters([collector]) {
      let store = TestStore(initialState: Tally.State()) { Tally() }
      await store.send(.increment) { $0.count = 5 }
    }
    let messages = collector.messages.value
    XCTAssertEqual(messages.count, 1)
    let message = messages.first ?? ""
    XCTAssertTrue(message.contains("A state change does not match expectation."))
    XCTAssertTrue(message.contains("−   count: 5"))
    XCTAssertTrue(message.contains("+   count: 1"))
  }
}

/// Each XCTest case sees fresh test values of its dependencies, as each Swift Testing test
/// does: both cases start numbering stack elements at 0, whichever runs first.
final class DependenciesPerXCTestCaseTests: XCTestCase {
  func testFirstCaseStartsItsStackIDsAtZero() {
    @Dependency(\.stackElementID) var stackElementID
    XCTAssertEqual(stackElementID.next(), 0)
    XCTAssertEqual(stackElementID.next(), 1)
  }

  func testSecondCaseStartsItsStackIDsAtZero() {
    @Dependency(\.stackElementID) var stackElementID
    XCTAssertEqual(stackElementID.next(), 0)
    XCTAssertEqual(stackElementID.next(), 1)
  }
}

/// Records every issue's message instead of failing a test.
final class CollectingReporter: IssueReporter {
  let messages = LockIsolated<[String]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let text = message() ?? ""
    messages.withValue { $0.append(text) }
  }
}
