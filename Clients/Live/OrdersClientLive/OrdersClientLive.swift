import CacheClient
import Dependencies
import Foundation
import LiveHTTP
@_exported import OrdersClient

extension OrdersClient {
  /// The embedded demo backend: the deterministic `DemoOrders` catalogue after a realistic
  /// latency on `clock`, honouring the request's simulation. This is the app's default.
  public static func demo(
    latency: Duration = .milliseconds(600),
    cache: CacheClient,
    cacheTTL: Duration = .seconds(300),
    clock: any Clock<Duration> = ContinuousClock()
  ) -> Self {
    cached(backend: "demo", cache: cache, ttl: cacheTTL) { request in
      try await clock.sleep(for: latency)
      return try DemoOrders.page(for: request)
    }
  }

  /// A real server: `GET {baseURL}/orders?page=&per_page=&status=` answering with JSON
  /// `{"items": [Order], "page": Int, "hasMorePages": Bool}`.
  public static func http(
    baseURL: URL,
    timeout: Duration = .seconds(10),
    cache: CacheClient,
    cacheTTL: Duration = .seconds(300)
  ) -> Self {
    cached(backend: baseURL.absoluteString, cache: cache, ttl: cacheTTL) { request in
      if request.simulation.failure { throw OrdersError.networkConnection }
      if request.simulation.empty || request.filter == .noOrders {
        return OrdersPage(items: [], page: request.page, hasMorePages: false)
      }
      var components = URLComponents(
        url: baseURL.appendingPathComponent("orders"),
        resolvingAgainstBaseURL: false
      )!
      components.queryItems = [
        URLQueryItem(name: "page", value: String(request.page)),
        URLQueryItem(name: "per_page", value: String(request.perPage)),
      ]
      if case .status(let status) = request.filter {
        components.queryItems?.append(URLQueryItem(name: "status", value: status.rawValue))
      }
      let httpRequest = LiveHTTP.Request(
        url: components.url!, headers: [("Accept", "application/json")])
      let response: LiveHTTP.Response
      do {
        response = try await LiveHTTP.send(httpRequest, timeout: timeout)
      } catch {
        throw (error as? LiveHTTP.TransportFailure) == .timeout
          ? OrdersError.timeout : .networkConnection
      }
      switch response.status {
      case 200:
        do {
          return try JSONDecoder().decode(OrdersPage.self, from: response.body)
        } catch {
          throw OrdersError.parsingError("\(error)")
        }
      case 500...599:
        throw OrdersError.serverError(status: response.status)
      default:
        throw OrdersError.unknown("HTTP status \(response.status)")
      }
    }
  }

  /// Puts a backend's pages through the cache: every fetched page is kept for `ttl`, and
  /// `cachedPage` answers from it. Simulated requests are neither cached nor answered from the
  /// cache, so a demonstration never poisons real data.
  static func cached(
    backend: String,
    cache: CacheClient,
    ttl: Duration,
    fetch: @escaping @Sendable (PageRequest) async throws -> OrdersPage
  ) -> Self {
    @Sendable func key(_ request: PageRequest) -> String {
      "orders/v1/\(backend)/\(request.filter.name)/\(request.perPage)/\(request.page)"
    }
    return Self(
      fetchPage: { request in
        let page = try await fetch(request)
        if request.simulation == .none {
          try? await cache.store(value: page, forKey: key(request), ttl: ttl)
        }
        return page
      },
      cachedPage: { request in
        guard request.simulation == .none else { return nil }
        return await cache.value(OrdersPage.self, forKey: key(request))
      }
    )
  }
}

extension OrdersClient: DependencyKey {
  /// The demo backend, through the app's cache.
  public static var liveValue: OrdersClient {
    OrdersClient(
      fetchPage: { request in
        @Dependency(\.cacheClient) var cache
        return try await OrdersClient.demo(cache: cache).fetchPage(request)
      },
      cachedPage: { request in
        @Dependency(\.cacheClient) var cache
        return await OrdersClient.demo(cache: cache).cachedPage(request)
      }
    )
  }
}
