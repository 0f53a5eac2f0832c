import OrdersClient
import Testing

struct DemoOrdersTests {
  @Test func pagesCoverTheCatalogueExactlyOnce() throws {
    var seen: [Int] = []
    var page = 0
    while true {
      let result = try DemoOrders.page(for: PageRequest(page: page, perPage: 10))
      seen += result.items.map(\.id)
      guard result.hasMorePages else { break }
      page += 1
    }
    #expect(seen == Array(1...DemoOrders.count))
    #expect(page == 4)
  }

  @Test func filtersKeepOneStatusAndNoOrdersIsEmpty() throws {
    for status in OrderStatus.allCases {
      let orders = DemoOrders.orders(matching: .status(status))
      #expect(!orders.isEmpty)
      #expect(orders.allSatisfy { $0.status == status })
    }
    #expect(try DemoOrders.page(for: PageRequest(page: 0, filter: .noOrders)).items.isEmpty)
  }

  @Test func simulationsFailOrEmpty() throws {
    #expect(throws: OrdersError.networkConnection) {
      try DemoOrders.page(for: PageRequest(page: 0, simulation: Simulation(failure: true)))
    }
    let empty = try DemoOrders.page(for: PageRequest(page: 0, simulation: Simulation(empty: true)))
    #expect(empty == OrdersPage(items: [], page: 0, hasMorePages: false))
  }

  @Test func filterNamesRoundTrip() {
    for filter in OrderFilter.allCases {
      #expect(OrderFilter(name: filter.name) == filter)
    }
    #expect(OrderFilter(name: "shipped") == .status(.shipped))
    #expect(OrderFilter(name: "bogus") == nil)
  }

  @Test func onlyConnectionTimeoutAndServerErrorsAreTransient() {
    #expect(OrdersError.networkConnection.isTransient)
    #expect(OrdersError.timeout.isTransient)
    #expect(OrdersError.serverError(status: 502).isTransient)
    #expect(!OrdersError.parsingError("x").isTransient)
    #expect(!OrdersError.unknown("x").isTransient)
  }
}
