import ComposableCore
import ComposableTestSupport
import Foundation
import OrdersClient
import RefreshableListFeature

typealias List = RefreshableList

/// A random source that always yields the same bits, so retry jitter is known in tests.
struct FixedRandom: RandomNumberGenerator {
  let bits: UInt64
  mutating func next() -> UInt64 { bits }
}

func page(_ number: Int, filter: OrderFilter = .all, perPage: Int = 10) -> OrdersPage {
  try! DemoOrders.page(for: PageRequest(page: number, perPage: perPage, filter: filter))
}

func load(
  _ kind: PageState<List.OrderList>.LoadingType,
  page: Int = 0,
  filter: OrderFilter = .all,
  attempt: Int = 0,
  simulation: Simulation = .none
) -> List.PageLoad {
  List.PageLoad(
    kind: kind,
    request: PageRequest(page: page, perPage: 10, filter: filter, simulation: simulation),
    attempt: attempt
  )
}

func list(pages: ClosedRange<Int>, filter: OrderFilter = .all) -> List.OrderList {
  let orders = pages.flatMap { page($0, filter: filter).items }
  return List.OrderList(
    items: IdentifiedArray(uniqueElements: orders),
    currentPage: pages.upperBound,
    hasMorePages: page(pages.upperBound, filter: filter).hasMorePages
  )
}

/// Scripted answers: each request takes the next outcome queued for its page (success by
/// default), after an optional delay on the test clock.
final class ScriptedOrders: Sendable {
  let failures = LockIsolated<[Int: [OrdersError]]>([:])
  let delays = LockIsolated<[OrderFilter: Duration]>([:])
  let cached = LockIsolated<OrdersPage?>(nil)
  let requests = LockIsolated<[PageRequest]>([])

  func fail(page: Int, with errors: OrdersError...) {
    failures.withValue { $0[page, default: []] += errors }
  }

  func client(clock: TestClock<Duration>) -> OrdersClient {
    OrdersClient(
      fetchPage: { request in
        self.requests.withValue { $0.append(request) }
        if let delay = self.delays.value[request.filter] { try await clock.sleep(for: delay) }
        let failure = self.failures.withValue { failures -> OrdersError? in
          guard var queue = failures[request.page], !queue.isEmpty else { return nil }
          let first = queue.removeFirst()
          failures[request.page] = queue
          return first
        }
        if let failure { throw failure }
        return try DemoOrders.page(for: request)
      },
      cachedPage: { _ in self.cached.value }
    )
  }
}

@MainActor
func makeStore(
  _ state: List.State = List.State(),
  orders: ScriptedOrders = ScriptedOrders(),
  clock: TestClock<Duration> = TestClock(),
  randomBits: UInt64 = 0
) -> TestStoreOf<List> {
  TestStore(initialState: state) {
    RefreshableList()
  } withDependencies: {
    $0.continuousClock = clock
    $0.ordersClient = orders.client(clock: clock)
    $0.withRandomNumberGenerator = WithRandomNumberGenerator(FixedRandom(bits: randomBits))
  }
}

extension TestStore where State == RefreshableList.State, Action == RefreshableList.Action {
  /// The first appearance: the first page starts loading under the overlay.
  func appear(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async {
    await send(
      .onAppear,
      assert: {
        $0.pageState = .loading(.initial)
        $0.inFlight = load(.initial)
      }, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension RefreshableList.State {
  /// What starting a refresh does: the list shown, if any, is kept to show while loading, a
  /// refresh error is cleared, and the overlay shows until the response.
  mutating func refreshStarted(keeping shown: RefreshableList.OrderList? = nil) {
    pageState = .loading(.refresh)
    if let shown { contentBeforeRefresh = shown }
    refreshErrorInfo = nil
    inFlight = load(.refresh)
  }

  /// What every final response does besides its own change: nothing is loading any more.
  mutating func loadFinished() {
    inFlight = nil
  }
}
