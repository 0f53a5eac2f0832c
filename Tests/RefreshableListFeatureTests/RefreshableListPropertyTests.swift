import ComposableCore
import ComposableTestSupport
import OrdersClient
import RefreshableListFeature
import Testing

/// SplitMix64: a small seeded generator, so a failing sequence can be replayed from its seed.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(_ seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@MainActor
struct RefreshableListPropertyTests {
  /// Random sessions of 1 000 actions against a client that answers late, fails in every way, or
  /// succeeds: the list never shows orders of another filter, a gap, a duplicate, or pages out of
  /// order, and never loads two things at once.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomSessionsNeverReachAnInvalidState(seed: UInt64) async {
    var random = SplitMix(seed)
    let outcomes = LockIsolated(SplitMix(seed &* 7919))
    let clock = TestClock()
    let client = OrdersClient(
      fetchPage: { request in
        let (delay, roll) = outcomes.withValue { ($0.next() % 3_000, $0.next() % 10) }
        try await clock.sleep(for: .milliseconds(Int(delay)))
        switch roll {
        case 0: throw OrdersError.networkConnection
        case 1: throw OrdersError.timeout
        case 2: throw OrdersError.serverError(status: 503)
        case 3: throw OrdersError.parsingError("garbled")
        default: return try DemoOrders.page(for: request)
        }
      },
      cachedPage: { request in
        outcomes.withValue { $0.next() % 3 == 0 } ? try? DemoOrders.page(for: request) : nil
      }
    )
    let store = TestStore(initialState: RefreshableList.State()) {
      RefreshableList()
    } withDependencies: {
      $0.continuousClock = clock
      $0.ordersClient = client
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(SplitMix(seed))
    }
    store.exhaustivity = .off

    for step in 0..<1_000 {
      switch random.next() % 10 {
      case 0: await store.send(.onAppear)
      case 1: await store.send(.pullToRefresh)
      case 2, 3: await store.send(.loadMore)
      case 4: await store.send(.retry)
      case 5:
        let filter = OrderFilter.allCases[Int(random.next() % UInt64(OrderFilter.allCases.count))]
        await store.send(.selectFilter(filter))
      case 6: await store.send(.toggleFilterDropdown)
      default: await clock.advance(by: .milliseconds(Int(random.next() % 4_000)))
      }
      let problems = invariantViolations(store.state)
      #expect(problems.isEmpty, "seed \(seed), step \(step): \(problems)")
      if !problems.isEmpty { break }
    }
    await store.skipInFlightEffects(strict: false)
    await store.skipReceivedActions(strict: false)
  }

  func invariantViolations(_ state: RefreshableList.State) -> [String] {
    var problems: [String] = []
    let catalogue = DemoOrders.orders(matching: state.selectedFilter)
    for content in [state.pageState.content, state.contentBeforeRefresh].compactMap({ $0 }) {
      let items = Array(content.items)
      if items != Array(catalogue.prefix(items.count)) {
        problems.append("items are not the first \(items.count) orders of \(state.selectedFilter)")
      }
      let expectedCount = min((content.currentPage + 1) * state.perPage, catalogue.count)
      if items.count != expectedCount {
        problems.append("\(items.count) items for pages 0...\(content.currentPage)")
      }
      if content.hasMorePages != (items.count < catalogue.count) {
        problems.append("hasMorePages is \(content.hasMorePages) with \(items.count) items")
      }
    }
    switch state.pageState {
    case .loaded(let content, .loading):
      if state.inFlight?.kind != .loadMore { problems.append("loading more without a load") }
      if state.inFlight?.request.page != content.currentPage + 1 {
        problems.append(
          "loading page \(state.inFlight?.request.page ?? -1) after \(content.currentPage)")
      }
    case .loading(.refresh):
      if state.inFlight?.kind != .refresh { problems.append("refreshing without a refresh load") }
    case .loading(.initial):
      if state.inFlight?.kind != .initial { problems.append("loading without an initial load") }
    default:
      break
    }
    if let load = state.inFlight {
      if load.request.filter != state.selectedFilter { problems.append("loading another filter") }
      if !(0...3).contains(load.attempt) { problems.append("attempt \(load.attempt)") }
    } else {
      if state.showLoadingOverlay { problems.append("overlay with nothing loading") }
      if state.pendingRetry != nil { problems.append("a retry pending with nothing loading") }
      if state.pageState.isLoading { problems.append("loading with no load in flight") }
    }
    return problems
  }
}
