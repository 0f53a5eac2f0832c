import ComposableCore
import ComposableTestSupport
import OrdersClient
import RefreshableListFeature
import Testing

@MainActor
struct RefreshableListTests {
  let networkInfo = ErrorInfo(
    type: .networkConnection, description: "The orders server could not be reached.")
  let parsingInfo = ErrorInfo(
    type: .parsingError,
    description: "The orders server sent something unreadable (bad json)."
  )

  @Test func firstAppearanceLoadsTheFirstPageOnce() async {
    let store = makeStore()
    await store.appear()
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.loadFinished()
    }
    await store.send(.onAppear)
    #expect(store.state.visibleOrders.count == 10)
  }

  @Test func loadMoreAppendsUntilThereIsNoMore() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.delays.setValue([.all: .seconds(1)])
    let store = makeStore(
      List.State(pageState: .loaded(list(pages: 0...3), .idle)),
      orders: orders,
      clock: clock
    )
    await store.send(.loadMore) {
      $0.pageState = .loaded(list(pages: 0...3), .loading)
      $0.inFlight = load(.loadMore, page: 4)
    }
    // The overlay shows while a page is on its way (the clock holds the answer back).
    #expect(store.state.showLoadingOverlay)
    // A second load-more while one is loading does nothing.
    await store.send(.loadMore)
    await clock.advance(by: .seconds(1))
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...4), .noMore)
      $0.loadFinished()
    }
    #expect(store.state.visibleOrders.count == DemoOrders.count)
    await store.send(.loadMore)
  }

  @Test func loadMoreFailureKeepsTheItemsAndRetriesAtTheBottom() async {
    let orders = ScriptedOrders()
    orders.fail(page: 1, with: .parsingError("bad json"))
    let store = makeStore(List.State(pageState: .loaded(list(pages: 0...0), .idle)), orders: orders)
    await store.send(.loadMore) {
      $0.pageState = .loaded(list(pages: 0...0), .loading)
      $0.inFlight = load(.loadMore, page: 1)
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .failed(parsingInfo))
      $0.loadFinished()
    }
    await store.send(.retry)
    await store.receive(\.loadMore) {
      $0.pageState = .loaded(list(pages: 0...0), .loading)
      $0.inFlight = load(.loadMore, page: 1)
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...1), .idle)
      $0.loadFinished()
    }
  }

  @Test func aParsingFailureIsNotRetriedUntilAsked() async {
    let orders = ScriptedOrders()
    orders.fail(page: 0, with: .parsingError("bad json"))
    let store = makeStore(orders: orders)
    await store.appear()
    await store.receive(\.pageResponse) {
      $0.pageState = .failed(.initial, parsingInfo)
      $0.loadFinished()
    }
    await store.send(.retry) {
      $0.pageState = .loading(.initial)
      $0.inFlight = load(.initial)
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.loadFinished()
    }
    #expect(orders.requests.value.count == 2)
  }

  @Test func refreshRestartsFromTheFirstPage() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.delays.setValue([.all: .seconds(1)])
    let store = makeStore(
      List.State(pageState: .loaded(list(pages: 0...2), .idle)),
      orders: orders,
      clock: clock
    )
    await store.send(.pullToRefresh) {
      $0.refreshStarted(keeping: list(pages: 0...2))
    }
    // Refresh never runs twice at once.
    await store.send(.pullToRefresh)
    #expect(store.state.visibleOrders.count == 30)
    await clock.advance(by: .seconds(1))
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.contentBeforeRefresh = nil
      $0.loadFinished()
    }
    #expect(orders.requests.value.map(\.page) == [0])
  }

  @Test func refreshFailureKeepsTheItemsWithABannerAndRetries() async {
    let orders = ScriptedOrders()
    orders.fail(page: 0, with: .parsingError("bad json"))
    let store = makeStore(List.State(pageState: .loaded(list(pages: 0...1), .idle)), orders: orders)
    await store.send(.pullToRefresh) {
      $0.refreshStarted(keeping: list(pages: 0...1))
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...1), .idle)
      $0.contentBeforeRefresh = nil
      $0.refreshErrorInfo = parsingInfo
      $0.loadFinished()
    }
    await store.send(.retry)
    await store.receive(\.pullToRefresh) {
      $0.refreshStarted(keeping: list(pages: 0...1))
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.contentBeforeRefresh = nil
      $0.loadFinished()
    }
  }

  @Test func refreshFailureWithNothingShownIsAFailedRefresh() async {
    let orders = ScriptedOrders()
    orders.fail(page: 0, with: .unknown("HTTP status 404"))
    let info = ErrorInfo(
      type: .unknown, description: "The orders could not be loaded (HTTP status 404).")
    let store = makeStore(List.State(pageState: .failed(.initial, parsingInfo)), orders: orders)
    await store.send(.pullToRefresh) {
      $0.refreshStarted()
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .failed(.refresh, info)
      $0.loadFinished()
    }
    await store.send(.retry)
    await store.receive(\.pullToRefresh) {
      $0.refreshStarted()
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.loadFinished()
    }
  }

  @Test func transientFailuresRetryAfterOneTwoAndFourSeconds() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.fail(
      page: 0, with: .networkConnection, .timeout, .serverError(status: 503), .networkConnection)
    let store = makeStore(orders: orders, clock: clock)
    await store.appear()
    for (attempt, seconds) in [(1, 1), (2, 2), (3, 4)] {
      await store.receive(\.pageResponse) {
        $0.inFlight = load(.initial, attempt: attempt)
        $0.pendingRetry = List.PendingRetry(attempt: attempt, delay: .seconds(seconds))
      }
      await clock.advance(by: .seconds(seconds) - .milliseconds(1))
      await clock.advance(by: .milliseconds(1))
      await store.receive(\.retryTimerFired) { $0.pendingRetry = nil }
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .failed(.initial, networkInfo)
      $0.loadFinished()
    }
    #expect(orders.requests.value.count == 4)
  }

  @Test func retryDelaysCarryJitterFromTheRandomSource() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.fail(page: 0, with: .timeout)
    // A random draw of one half (Double.random uses the low 53 bits): jitter is half of 25 %,
    // so the first delay is 1.125 s.
    let store = makeStore(orders: orders, clock: clock, randomBits: 1 << 52)
    await store.appear()
    await store.receive(\.pageResponse) {
      $0.inFlight = load(.initial, attempt: 1)
      $0.pendingRetry = List.PendingRetry(attempt: 1, delay: .milliseconds(1125))
    }
    await clock.advance(by: .milliseconds(1124))
    await clock.advance(by: .milliseconds(1))
    await store.receive(\.retryTimerFired) { $0.pendingRetry = nil }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.loadFinished()
    }
  }

  @Test func aFilterChangeCancelsAPendingRetry() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.fail(page: 0, with: .networkConnection)
    let store = makeStore(orders: orders, clock: clock)
    await store.appear()
    await store.receive(\.pageResponse) {
      $0.inFlight = load(.initial, attempt: 1)
      $0.pendingRetry = List.PendingRetry(attempt: 1, delay: .seconds(1))
    }
    await store.send(.selectFilter(.status(.shipped))) {
      $0.selectedFilter = .status(.shipped)
      $0.inFlight = load(.initial, filter: .status(.shipped))
      $0.pendingRetry = nil
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0, filter: .status(.shipped)), .noMore)
      $0.loadFinished()
    }
    // The retry for the old filter never fires.
    await clock.advance(by: .seconds(10))
  }

  @Test func aLateResponseForTheOldFilterNeverLands() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.delays.setValue([.all: .seconds(5), .status(.pending): .seconds(1)])
    let store = makeStore(orders: orders, clock: clock)
    await store.appear()
    await store.send(.toggleFilterDropdown) { $0.showFilterDropdown = true }
    await store.send(.selectFilter(.status(.pending))) {
      $0.selectedFilter = .status(.pending)
      $0.showFilterDropdown = false
      $0.inFlight = load(.initial, filter: .status(.pending))
    }
    await clock.advance(by: .seconds(5))
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0, filter: .status(.pending)), .noMore)
      $0.loadFinished()
    }
    #expect(store.state.visibleOrders.allSatisfy { $0.status == .pending })
    // Even a response that escaped cancellation is ignored: it is not the load in flight.
    await store.send(.pageResponse(load(.initial), .success(page(0))))
  }

  @Test func theNoOrdersFilterIsAlwaysEmpty() async {
    let store = makeStore()
    await store.send(.selectFilter(.noOrders)) {
      $0.selectedFilter = .noOrders
      $0.pageState = .loading(.initial)
      $0.inFlight = load(.initial, filter: .noOrders)
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(
        List.OrderList(items: [], currentPage: 0, hasMorePages: false), .noMore)
      $0.loadFinished()
    }
  }

  @Test func aCachedPageShowsStaleUntilTheFreshOneArrives() async {
    let clock = TestClock()
    let orders = ScriptedOrders()
    orders.delays.setValue([.all: .seconds(1)])
    var firstThree = page(0)
    firstThree.items = Array(firstThree.items.prefix(3))
    let cached = firstThree
    orders.cached.setValue(cached)
    let store = makeStore(orders: orders, clock: clock)
    await store.appear()
    await store.receive(\.cachedPageLoaded) {
      $0.pageState = .loaded(List.OrderList(cached), .idle)
      $0.isStale = true
    }
    // The cached page shows instead of the overlay, while the fresh one is still loading.
    #expect(!store.state.showLoadingOverlay)
    // No paging or refreshing from a stale page: the fresh first page is on its way.
    await store.send(.loadMore)
    await store.send(.pullToRefresh)
    await clock.advance(by: .seconds(1))
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.isStale = false
      $0.inFlight = nil
    }
    #expect(!store.state.showLoadingOverlay)
  }

  @Test func aFailedRevalidationKeepsTheCachedPageWithABanner() async {
    let orders = ScriptedOrders()
    orders.fail(page: 0, with: .parsingError("bad json"))
    orders.cached.setValue(page(0))
    let store = makeStore(orders: orders)
    await store.appear()
    await store.receive(\.cachedPageLoaded) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.isStale = true
    }
    await store.receive(\.pageResponse) {
      $0.refreshErrorInfo = parsingInfo
      $0.inFlight = nil
    }
    orders.cached.setValue(nil)
    await store.send(.retry) { $0.isStale = false }
    await store.receive(\.pullToRefresh) {
      $0.refreshStarted(keeping: list(pages: 0...0))
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(list(pages: 0...0), .idle)
      $0.contentBeforeRefresh = nil
      $0.loadFinished()
    }
  }

  @Test func simulationsApplyToTheNextRequest() async {
    let store = makeStore()
    await store.send(.simulationChanged(Simulation(failure: true, empty: true))) {
      $0.simulation = Simulation(failure: true, empty: true)
    }
    await store.send(.simulationChanged(Simulation(empty: true))) {
      $0.simulation = Simulation(empty: true)
    }
    await store.send(.onAppear) {
      $0.pageState = .loading(.initial)
      $0.inFlight = load(.initial, simulation: Simulation(empty: true))
    }
    await store.receive(\.pageResponse) {
      $0.pageState = .loaded(
        List.OrderList(items: [], currentPage: 0, hasMorePages: false), .noMore)
      $0.loadFinished()
    }
    await store.send(.toggleFilterDropdown) { $0.showFilterDropdown = true }
    await store.send(.toggleFilterDropdown) { $0.showFilterDropdown = false }
  }

  @Test func retryWithNothingFailedDoesNothing() async {
    let store = makeStore(List.State(pageState: .loaded(list(pages: 0...0), .idle)))
    await store.send(.retry)
  }
}
