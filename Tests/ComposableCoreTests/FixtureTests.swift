import ComposableCore
import ComposableFixtures
import ComposableTestSupport
import Testing

/// The shared fixtures do what the benchmark rows that send their actions claim to measure: a
/// row whose action stopped doing its work would get faster and still look right.
@MainActor
struct FixtureTests {
  @Test func mergesOfNoneOnlyChangeTheCount() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementMergingNones) { $0.count = 1 }
    await store.send(.incrementMergingTwoNones) { $0.count = 2 }
    await store.send(.decrement) { $0.count = 1 }
  }

  @Test func eachFoldedSendArrivesOnce() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.foldSends(2))
    await store.receive(\.increment) { $0.count = 1 }
    await store.receive(\.increment) { $0.count = 2 }
    await store.send(.foldSendsVariadic(2))
    await store.receive(\.increment) { $0.count = 3 }
    await store.receive(\.increment) { $0.count = 4 }
  }

  @Test func echoesComeBack() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.echo)
    await store.receive(\.echoed) { $0.count = 1 }
    await store.send(.echoTwice)
    await store.receive(\.echoed) { $0.count = 2 }
    await store.receive(\.echoed) { $0.count = 3 }
  }

  @Test func runsFinishAndSendTheirResponses() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.startRuns(3))
    await store.send(.startRunsWorking(3))
    await store.finish()
    await store.send(.startRunsSending(2))
    await store.receive(\.increment) { $0.count = 1 }
    await store.receive(\.increment) { $0.count = 2 }
  }

  @Test func longLivingRunsStopWhenCancelled() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }
    // The test store fails at its end if any of the three is still running.
    await store.send(.startLongLiving(3))
    await store.send(.cancelLongLiving)
  }

  @Test func eachRowSendsToItsOwnCounter() async {
    let store = TestStore(initialState: Rows.State(rows: [Rows.Row(id: 1), Rows.Row(id: 2)])) {
      Rows()
    }
    await store.send(\.rows[id: 2].increment) { $0.rows[id: 2]?.counter.count = 1 }
    await store.send(\.rows[id: 1].echo)
    await store.receive(\.rows[id: 1].echoed) { $0.rows[id: 1]?.counter.count = 1 }
    await store.send(\.rows[id: 1].startLongLiving, 1)
    await store.send(\.rows[id: 1].cancelLongLiving)
  }
}
