import Dependencies
import DependenciesMacros
import Foundation

/// Fetches pages of orders.
@DependencyClient
public struct OrdersClient: Sendable {
  /// Fetches one page; throws ``OrdersError``.
  public var fetchPage: @Sendable (_ request: PageRequest) async throws -> OrdersPage
  /// The page kept from an earlier fetch, if any, to show while a fresh one loads.
  public var cachedPage: @Sendable (_ request: PageRequest) async -> OrdersPage? = { _ in nil }
}

extension OrdersClient: TestDependencyKey {
  /// Fails the test on any unexpected use.
  public static let testValue = OrdersClient()
  /// The demo catalogue, instantly.
  public static let previewValue = OrdersClient(
    fetchPage: { try DemoOrders.page(for: $0) },
    cachedPage: { _ in nil }
  )
}

extension DependencyValues {
  /// The orders client.
  public var ordersClient: OrdersClient {
    get { self[OrdersClient.self] }
    set { self[OrdersClient.self] = newValue }
  }
}
