import ComposableCore
import ComposableTestSupport
import Testing

/// Exhaustive test stores: a tick that should not happen arrives unreceived and fails the test,
/// so "it stopped" is asserted without waiting for nothing to happen.
@MainActor
struct CancellationTests {
  func makeStore<R: Reducer>(
    _ state: R.State, _ reducer: R, clock: TestClock<Duration>
  ) -> TestStore<R.State, R.Action> where R.State: Equatable {
    TestStore(initialState: state) {
      reducer
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func cancelStopsAnEffectById() async {
    let clock = TestClock()
    let store = makeStore(Ticker.State(id: 1), Ticker(), clock: clock)
    await store.send(.start)
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.send(.stop)
    await clock.advance(by: .seconds(5))
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let clock = TestClock()
    let store = makeStore(Ticker.State(id: 1), Ticker(), clock: clock)
    await store.send(.start)
    await clock.advance(by: .milliseconds(500))
    await store.send(.restart)
    // Only the restarted timer ticks: one tick per second from the restart, not two.
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.ticks = 3 }
    await store.send(.stop)
  }

  @Test func withoutCancelInFlightBothEffectsRun() async {
    let clock = TestClock()
    let store = makeStore(Ticker.State(id: 1), Ticker(), clock: clock)
    await store.send(.start)
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    // One id cancels both.
    await store.send(.stop)
    await clock.advance(by: .seconds(1))
  }

  @Test func siblingsInAForEachDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = makeStore(
      TickerList.State(rows: [.init(id: 1), .init(id: 2)]), TickerList(), clock: clock)
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.rows(.element(id: 2, action: .start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    // Same CancelID, different element: only row 1 stops.
    await store.send(.rows(.element(id: 1, action: .stop)))
    await clock.advance(by: .seconds(2))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 2 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 3 }
    await store.send(.rows(.element(id: 2, action: .stop)))
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(
      TickerList.State(rows: [.init(id: 1), .init(id: 2)]), TickerList(), clock: clock)
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.rows(.element(id: 2, action: .start)))
    await store.send(.remove(id: 1)) { $0.rows.remove(id: 1) }
    // A tick for row 1 would arrive as an action for a missing element, unreceived.
    await clock.advance(by: .seconds(2))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 2 }
    await store.send(.rows(.element(id: 2, action: .stop)))
  }

  @Test func niliingIfLetStateCancelsChildEffects() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), TickerList(), clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await store.send(.closeDetail) { $0.detail = nil }
    await clock.advance(by: .seconds(3))
  }

  @Test func scopedStoresShareTheRootsEffects() async throws {
    let clock = TestClock()
    let store = Store(initialState: TickerList.State(detail: .init(id: 9))) {
      TickerList()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let detail = try #require(store.scope(state: \.detail, action: \.detail))
    let task = detail.send(.start)
    // A live store's effect reaches its first sleep on another executor: advance until it ticks.
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while detail.state.ticks == 0, ContinuousClock.now < deadline {
      await clock.advance(by: .seconds(1))
      await Task.yield()
    }
    #expect(detail.state.ticks >= 1)
    #expect(store.state.detail?.ticks == detail.state.ticks)
    detail.send(.stop)
    await task.finish()
  }

  @Test func deallocatingTheStoreCancelsItsEffects() async {
    let clock = TestClock()
    var store: StoreOf<Ticker>? = Store(initialState: Ticker.State(id: 1)) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store?.send(.start)
    #expect(task?.isCancelled == false)
    store = nil
    // The effect finishes only because the store's teardown cancelled it.
    await task?.finish()
  }
}
