import ComposableCore
import ComposableTestSupport
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

/// Exhaustive test stores: an effect that should not fire would arrive unreceived.
@MainActor
struct TimingTests {
  func makeStore(latest: Bool = true, clock: TestClock<Duration>) -> TestStore<
    Search.State, Search.Action
  > {
    TestStore(initialState: Search.State()) {
      Search(latest: latest)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func debounceRunsOnlyTheLastOfABurst() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("c")) { $0.query = "c" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("co")) { $0.query = "co" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("com")) { $0.query = "com" }
    await clock.advance(by: .milliseconds(299))
    // Nothing yet: a search now would be received before this send.
    await store.send(.cancelTaps)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.search("com")) { $0.searches = ["com"] }
  }

  @Test func throttleLatestSendsFirstNowAndLatestAtWindowEnd() async {
    let clock = TestClock()
    let store = makeStore(latest: true, clock: clock)
    await store.send(.tapped(1))
    await store.receive(.tapDelivered(1)) { $0.taps = [1] }
    await clock.advance(by: .milliseconds(300))
    await store.send(.tapped(2))
    await store.send(.tapped(3))
    await clock.advance(by: .milliseconds(700))
    await store.receive(.tapDelivered(3)) { $0.taps = [1, 3] }
    // A tap long after the window passes straight through.
    await clock.advance(by: .seconds(5))
    await store.send(.tapped(4))
    await store.receive(.tapDelivered(4)) { $0.taps = [1, 3, 4] }
  }

  @Test func throttleFirstKeepsTheFirstOfTheWindow() async {
    let clock = TestClock()
    let store = makeStore(latest: false, clock: clock)
    await store.send(.tapped(1))
    await store.receive(.tapDelivered(1)) { $0.taps = [1] }
    await store.send(.tapped(2))
    await store.send(.tapped(3))
    await clock.advance(by: .seconds(1))
    await store.receive(.tapDelivered(2)) { $0.taps = [1, 2] }
  }

  @Test func cancellingAThrottleDropsThePendingEffect() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.tapped(1))
    await store.receive(.tapDelivered(1)) { $0.taps = [1] }
    await store.send(.tapped(2))
    await store.send(.cancelTaps)
    await clock.advance(by: .seconds(2))
  }
}
