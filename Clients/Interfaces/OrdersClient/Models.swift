import Foundation

/// An order, as the orders list shows it.
public struct Order: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The order's id; ids count up across pages.
  public let id: Int
  /// The order number shown to people, e.g. `ORD-00042`.
  public var number: String
  /// Who ordered.
  public var customer: String
  /// The total in cents.
  public var totalCents: Int
  /// Where the order is.
  public var status: OrderStatus
  /// How many items it holds.
  public var itemCount: Int

  /// An order with the given fields.
  public init(
    id: Int,
    number: String,
    customer: String,
    totalCents: Int,
    status: OrderStatus,
    itemCount: Int
  ) {
    self.id = id
    self.number = number
    self.customer = customer
    self.totalCents = totalCents
    self.status = status
    self.itemCount = itemCount
  }
}

/// Where an order is in its life.
public enum OrderStatus: String, Codable, CaseIterable, Hashable, Sendable {
  /// Placed, not yet handled.
  case pending
  /// Being prepared.
  case processing
  /// On its way.
  case shipped
  /// Arrived.
  case delivered
  /// Called off.
  case cancelled
}

/// Which orders a page holds.
public enum OrderFilter: CaseIterable, Codable, Equatable, Hashable, Sendable {
  /// Every order.
  case all
  /// Orders in one status.
  case status(OrderStatus)
  /// Nothing: always an empty list, to show the empty state.
  case noOrders

  /// Every filter, in menu order.
  public static let allCases: [OrderFilter] =
    [.all] + OrderStatus.allCases.map(OrderFilter.status) + [.noOrders]

  /// The filter's name in menus and on the command line.
  public var name: String {
    switch self {
    case .all: "all"
    case .status(let status): status.rawValue
    case .noOrders: "none"
    }
  }

  /// The filter with the given name.
  public init?(name: String) {
    guard let filter = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = filter
  }
}

/// How a page request should misbehave, for demonstrating failure and empty states.
public struct Simulation: Codable, Equatable, Hashable, Sendable {
  /// Every request fails with a network error.
  public var failure: Bool
  /// Every request succeeds with no orders.
  public var empty: Bool

  /// A simulation; none by default.
  public init(failure: Bool = false, empty: Bool = false) {
    self.failure = failure
    self.empty = empty
  }

  /// No simulation: real behaviour.
  public static let none = Simulation()
}

/// One page to fetch.
public struct PageRequest: Codable, Equatable, Hashable, Sendable {
  /// The page number, from 0.
  public var page: Int
  /// Orders per page.
  public var perPage: Int
  /// Which orders.
  public var filter: OrderFilter
  /// Simulated misbehaviour.
  public var simulation: Simulation

  /// A request for one page.
  public init(
    page: Int, perPage: Int = 10, filter: OrderFilter = .all, simulation: Simulation = .none
  ) {
    self.page = page
    self.perPage = perPage
    self.filter = filter
    self.simulation = simulation
  }
}

/// A page of orders.
public struct OrdersPage: Codable, Equatable, Sendable {
  /// The orders on the page.
  public var items: [Order]
  /// The page number.
  public var page: Int
  /// Whether another page follows.
  public var hasMorePages: Bool

  /// A page with the given fields.
  public init(items: [Order], page: Int, hasMorePages: Bool) {
    self.items = items
    self.page = page
    self.hasMorePages = hasMorePages
  }
}

/// Why a page could not be fetched, in the categories the list shows and retries by.
public enum OrdersError: Error, Equatable, Codable, Sendable, LocalizedError {
  /// The server could not be reached.
  case networkConnection
  /// The server did not answer in time.
  case timeout
  /// The server failed (HTTP 5xx).
  case serverError(status: Int)
  /// The answer could not be decoded.
  case parsingError(String)
  /// Anything else, such as an HTTP 4xx.
  case unknown(String)

  /// Whether trying again later may succeed: connection problems, timeouts and server errors.
  public var isTransient: Bool {
    switch self {
    case .networkConnection, .timeout, .serverError: true
    case .parsingError, .unknown: false
    }
  }

  /// A sentence for the person using the app.
  public var errorDescription: String? {
    switch self {
    case .networkConnection: "The orders server could not be reached."
    case .timeout: "The orders server did not answer in time."
    case .serverError(let status): "The orders server failed (status \(status))."
    case .parsingError(let detail): "The orders server sent something unreadable (\(detail))."
    case .unknown(let detail): "The orders could not be loaded (\(detail))."
    }
  }
}
