import ComposableCore
import Testing

/// A row with a timer, used to show that cancellation ids are per instance.
struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var ticks = 0
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case stop
    case tick
    case restart
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start, .restart:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: action == .restart)
    case .stop:
      return .cancel(id: CancelID.timer)
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

struct TickerList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
    var detail: Ticker.State?
  }

  @CasePathable
  enum Action: Equatable {
    case rows(IdentifiedActionOf<Ticker>)
    case detail(Ticker.Action)
    case remove(id: Int)
    case closeDetail
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .remove(let id):
        state.rows.remove(id: id)
        return .none
      case .closeDetail:
        state.detail = nil
        return .none
      case .rows, .detail:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) { Ticker() }
    .ifLet(\.detail, action: \.detail) { Ticker() }
  }
}

@MainActor
struct CancellationTests {
  func makeStore(_ state: TickerList.State, clock: TestClock<Duration>) -> StoreOf<TickerList> {
    Store(initialState: state) {
      TickerList()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func cancelStopsAnEffectById() async {
    let clock = TestClock()
    let store = Store(initialState: Ticker.State(id: 1)) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.start)
    await settle()
    await clock.advance(by: .seconds(2))
    await eventually { store.state.ticks == 2 }
    store.send(.stop)
    await task.finish()
    await clock.advance(by: .seconds(5))
    await settle()
    #expect(store.state.ticks == 2)
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let clock = TestClock()
    let store = Store(initialState: Ticker.State(id: 1)) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let first = store.send(.start)
    await settle()
    await clock.advance(by: .milliseconds(500))
    let second = store.send(.restart)
    await first.finish()
    // Only the restarted timer ticks: one tick per second from the restart, not two.
    await clock.advance(by: .seconds(3))
    await eventually { store.state.ticks == 3 }
    await settle()
    #expect(store.state.ticks == 3)
    second.cancel()
    await second.finish()
  }

  @Test func withoutCancelInFlightBothEffectsRun() async {
    let clock = TestClock()
    let store = Store(initialState: Ticker.State(id: 1)) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.send(.start)
    store.send(.start)
    await settle()
    await clock.advance(by: .seconds(1))
    await eventually { store.state.ticks == 2 }
    store.send(.stop)
    await settle()
    await clock.advance(by: .seconds(1))
    await settle()
    #expect(store.state.ticks == 2)
  }

  @Test func siblingsInAForEachDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(rows: [.init(id: 1), .init(id: 2)]), clock: clock)
    store.send(.rows(.element(id: 1, action: .start)))
    store.send(.rows(.element(id: 2, action: .start)))
    await settle()
    await clock.advance(by: .seconds(1))
    await eventually { store.state.rows.map(\.ticks) == [1, 1] }
    // Same CancelID, different element: only row 1 stops.
    store.send(.rows(.element(id: 1, action: .stop)))
    await settle()
    await clock.advance(by: .seconds(2))
    await eventually { store.state.rows[id: 2]?.ticks == 3 }
    #expect(store.state.rows[id: 1]?.ticks == 1)
    store.send(.rows(.element(id: 2, action: .stop)))
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(rows: [.init(id: 1), .init(id: 2)]), clock: clock)
    store.send(.rows(.element(id: 1, action: .start)))
    let survivor = store.send(.rows(.element(id: 2, action: .start)))
    store.send(.remove(id: 1))
    await settle()
    await clock.advance(by: .seconds(2))
    await eventually { store.state.rows[id: 2]?.ticks == 2 }
    // A tick for row 1 would have been reported as an action for a missing element.
    await settle()
    #expect(store.state.rows.ids == [2])
    survivor.cancel()
    await survivor.finish()
  }

  @Test func niliingIfLetStateCancelsChildEffects() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), clock: clock)
    let task = store.send(.detail(.start))
    await settle()
    await clock.advance(by: .seconds(1))
    await eventually { store.state.detail?.ticks == 1 }
    store.send(.closeDetail)
    await task.finish()
    await clock.advance(by: .seconds(3))
    await settle()
    #expect(store.state.detail == nil)
  }

  @Test func scopedStoresShareTheRootsEffects() async throws {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), clock: clock)
    let detail = try #require(store.scope(state: \.detail, action: \.detail))
    let task = detail.send(.start)
    await settle()
    await clock.advance(by: .seconds(2))
    await eventually { detail.state.ticks == 2 }
    #expect(store.state.detail?.ticks == 2)
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
