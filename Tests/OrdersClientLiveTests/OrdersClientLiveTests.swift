import CacheClient
import Clocks
import Foundation
import HTTPTestServer
import OrdersClientLive
import Testing

/// The HTTP backend against a real server on 127.0.0.1, and the demo backend's caching.
struct OrdersClientLiveTests {
  // The timeout is generous for the same reason as the number fact client tests': a loaded
  // machine.
  func client(
    _ server: HTTPTestServer, cache: CacheClient = .inMemory(), timeout: Duration = .seconds(60)
  )
    -> OrdersClient
  {
    .http(baseURL: server.baseURL.appendingPathComponent("api"), timeout: timeout, cache: cache)
  }

  @Test func fetchesPagesWithTheQueryTheServerExpects() async throws {
    let server = try await HTTPTestServer { request in
      let page = Int(request.query.first { $0.name == "page" }?.value ?? "") ?? -1
      let status = request.query.first { $0.name == "status" }?.value
      let filter: OrderFilter =
        status.flatMap(OrderStatus.init(rawValue:)).map { .status($0) } ?? .all
      return .json(try! DemoOrders.page(for: PageRequest(page: page, perPage: 10, filter: filter)))
    }
    defer { Task { try await server.shutdown() } }
    let orders = client(server)
    let first = try await orders.fetchPage(PageRequest(page: 0))
    #expect(first == (try DemoOrders.page(for: PageRequest(page: 0))))
    let shipped = try await orders.fetchPage(PageRequest(page: 1, filter: .status(.shipped)))
    #expect(shipped.items.allSatisfy { $0.status == .shipped })
    #expect(server.requests.map(\.path) == ["/api/orders", "/api/orders"])
    #expect(
      server.requests.last?.query == [
        URLQueryItem(name: "page", value: "1"), URLQueryItem(name: "per_page", value: "10"),
        URLQueryItem(name: "status", value: "shipped"),
      ]
    )
  }

  @Test func aServerErrorIsTransientAndTyped() async throws {
    let server = try await HTTPTestServer { _ in .text("down", status: 503) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: OrdersError.serverError(status: 503)) {
      try await client(server).fetchPage(PageRequest(page: 0))
    }
  }

  @Test func aClientErrorIsUnknown() async throws {
    let server = try await HTTPTestServer { _ in .text("no", status: 404) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: OrdersError.unknown("HTTP status 404")) {
      try await client(server).fetchPage(PageRequest(page: 0))
    }
  }

  @Test func badJSONIsAParsingError() async throws {
    let server = try await HTTPTestServer { _ in
      .respond(status: 200, body: Data(#"{"items": 3}"#.utf8))
    }
    defer { Task { try await server.shutdown() } }
    await #expect {
      try await client(server).fetchPage(PageRequest(page: 0))
    } throws: { error in
      guard case .parsingError? = error as? OrdersError else { return false }
      return true
    }
  }

  @Test func aSilentServerTimesOut() async throws {
    let server = try await HTTPTestServer { _ in .hang }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: OrdersError.timeout) {
      try await client(server, timeout: .milliseconds(300)).fetchPage(PageRequest(page: 0))
    }
  }

  @Test func anUnreachableServerIsANetworkError() async throws {
    try await HTTPTestServer.withUnusedPort { port in
      let orders = OrdersClient.http(
        baseURL: URL(string: "http://127.0.0.1:\(port)")!, cache: .inMemory())
      await #expect(throws: OrdersError.networkConnection) {
        try await orders.fetchPage(PageRequest(page: 0))
      }
    }
  }

  @Test func fetchedPagesAreCachedAndSimulationsAreNot() async throws {
    let server = try await HTTPTestServer { _ in
      .json(OrdersPage(items: [], page: 0, hasMorePages: false))
    }
    defer { Task { try await server.shutdown() } }
    let orders = client(server)
    let request = PageRequest(page: 0, filter: .status(.pending))
    #expect(await orders.cachedPage(request) == nil)
    let fetched = try await orders.fetchPage(request)
    #expect(await orders.cachedPage(request) == fetched)
    let simulated = PageRequest(
      page: 0, filter: .status(.pending), simulation: Simulation(empty: true))
    #expect(await orders.cachedPage(simulated) == nil)
    // Simulations never reach the server.
    await #expect(throws: OrdersError.networkConnection) {
      try await orders.fetchPage(PageRequest(page: 0, simulation: Simulation(failure: true)))
    }
    #expect(server.requests.count == 1)
  }

  @Test func theDemoBackendAnswersAfterItsLatencyAndCaches() async throws {
    let clock = TestClock()
    let cache = CacheClient.inMemory()
    let orders = OrdersClient.demo(latency: .milliseconds(600), cache: cache, clock: clock)
    let task = Task { try await orders.fetchPage(PageRequest(page: 1)) }
    // The fetch must be asleep on the clock before the clock moves: a sleep that starts after
    // the advance waits for another, which never comes. The advance's own yields were not always
    // enough on a loaded machine, and the test then hung.
    var turns = 0
    while (try? await clock.checkSuspension()) != nil {
      turns += 1
      guard turns < 10_000 else {
        Issue.record("The fetch never slept on the clock")
        task.cancel()
        return
      }
    }
    await clock.advance(by: .milliseconds(599))
    #expect((try? await clock.checkSuspension()) == nil, "answered before its latency")
    await clock.advance(by: .milliseconds(1))
    let page = try await task.value
    #expect(page == (try DemoOrders.page(for: PageRequest(page: 1))))
    #expect(await orders.cachedPage(PageRequest(page: 1)) == page)
  }
}
