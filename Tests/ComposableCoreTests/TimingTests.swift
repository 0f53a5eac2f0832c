import ComposableCore
import Testing

struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var searches: [String] = []
    var taps: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case queryChanged(String)
    case search(String)
    case tapped(Int)
    case tapDelivered(Int)
    case cancelTaps
  }

  enum CancelID { case search, tap }

  let latest: Bool
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      return .send(.search(query)).debounce(
        id: CancelID.search, for: .milliseconds(300), clock: clock)
    case .search(let query):
      state.searches.append(query)
      return .none
    case .tapped(let n):
      return .send(.tapDelivered(n)).throttle(
        id: CancelID.tap, for: .seconds(1), clock: clock, latest: latest)
    case .tapDelivered(let n):
      state.taps.append(n)
      return .none
    case .cancelTaps:
      return .cancel(id: CancelID.tap)
    }
  }
}

@MainActor
struct TimingTests {
  func makeStore(latest: Bool = true, clock: TestClock<Duration>) -> StoreOf<Search> {
    Store(initialState: Search.State()) {
      Search(latest: latest)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func debounceRunsOnlyTheLastOfABurst() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.send(.queryChanged("c"))
    await settle()
    await clock.advance(by: .milliseconds(200))
    store.send(.queryChanged("co"))
    await settle()
    await clock.advance(by: .milliseconds(200))
    let last = store.send(.queryChanged("com"))
    await settle()
    await clock.advance(by: .milliseconds(299))
    await settle()
    #expect(store.state.searches.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await last.finish()
    #expect(store.state.searches == ["com"])
  }

  @Test func throttleLatestSendsFirstNowAndLatestAtWindowEnd() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    store.send(.tapped(1))
    #expect(store.state.taps == [1])
    await clock.advance(by: .milliseconds(300))
    store.send(.tapped(2))
    store.send(.tapped(3))
    #expect(store.state.taps == [1])
    await clock.advance(by: .milliseconds(700))
    await eventually { store.state.taps == [1, 3] }
    // A tap long after the window passes straight through.
    await clock.advance(by: .seconds(5))
    store.send(.tapped(4))
    #expect(store.state.taps == [1, 3, 4])
  }

  @Test func throttleFirstKeepsTheFirstOfTheWindow() async {
    let clock = TestClock()
    let store = makeStore(latest: false, clock: clock)
    store.send(.tapped(1))
    store.send(.tapped(2))
    store.send(.tapped(3))
    await settle()
    await clock.advance(by: .seconds(1))
    await eventually { store.state.taps == [1, 2] }
    await settle()
    #expect(store.state.taps == [1, 2])
  }

  @Test func cancellingAThrottleDropsThePendingEffect() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.send(.tapped(1))
    let pending = store.send(.tapped(2))
    store.send(.cancelTaps)
    await pending.finish()
    await clock.advance(by: .seconds(2))
    await settle()
    #expect(store.state.taps == [1])
  }
}
