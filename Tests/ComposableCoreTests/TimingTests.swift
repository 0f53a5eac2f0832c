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

/// Throttles by a value, as a feature throttling per query or per row does.
struct Pinned: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var delivered: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case tap(Int)
    case delivered(Int)
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tap(let n):
      return .send(.delivered(n)).throttle(id: n, for: .seconds(1), clock: clock, latest: true)
    case .delivered(let n):
      state.delivered.append(n)
      return .none
    }
  }
}

/// Rows that each throttle under the same id.
struct PinnedList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Pinned.State> = []
  }

  @CasePathable
  enum Action: Equatable {
    case rows(IdentifiedActionOf<Pinned>)
    case clear
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .clear = action { state.rows.removeAll() }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Pinned() }
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

/// What a store remembers of throttled ids stays as large as what can still hold an effect back.
@MainActor
struct ThrottleMemoryTests {
  @Test func idsWhoseIntervalPassedAreForgotten() async throws {
    let clock = TestClock()
    let store = Store(initialState: Pinned.State()) {
      Pinned()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let core = try #require(store.core as? RootCore<Pinned>)
    for n in 0..<1_000 { store.send(.tap(n)) }
    #expect(store.state.delivered == Array(0..<1_000))
    // All still within their interval.
    #expect(core.throttledIDCount == 1_000)
    await clock.advance(by: .seconds(1))
    for n in 1_000..<1_100 { store.send(.tap(n)) }
    #expect(store.state.delivered.count == 1_100)
    // Only the ids still within their interval are left.
    #expect(core.throttledIDCount == 100)
    // A forgotten id is throttled afresh: its first effect runs at once.
    store.send(.tap(0))
    store.send(.tap(0))
    #expect(store.state.delivered.suffix(2) == [1_099, 0])
  }

  @Test func theIdsOfRowsThatWentAwayAreForgotten() throws {
    let store = Store(
      initialState: PinnedList.State(
        rows: IdentifiedArray(
          uniqueElements: (0..<50).map {
            Pinned.State(id: $0)
          }))
    ) {
      PinnedList()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    let core = try #require(store.core as? RootCore<_BuiltReducer<PinnedList>>)
    for id in 0..<50 { store.send(.rows(.element(id: id, action: .tap(1)))) }
    #expect(core.throttledIDCount == 50)
    store.send(.clear)
    #expect(core.throttledIDCount == 0)
  }
}
