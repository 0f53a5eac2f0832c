import Foundation

/// A deterministic catalogue of demo orders: the same request always gives the same page, so
/// the demo backend, previews and tests agree on what a list should contain.
public enum DemoOrders {
  /// How many orders the catalogue holds in all.
  public static let count = 47

  static let customers = [
    "Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
    "Donald Knuth", "Margaret Hamilton", "Ken Thompson", "Frances Allen", "Niklaus Wirth",
  ]

  /// Every order of the catalogue, in id order.
  public static let all: [Order] = (1...count).map { id in
    Order(
      id: id,
      number: "ORD-" + String(repeating: "0", count: 5 - String(id).count) + String(id),
      customer: customers[(id * 7) % customers.count],
      totalCents: (id * 1_337) % 50_000 + 499,
      status: OrderStatus.allCases[(id * 3) % OrderStatus.allCases.count],
      itemCount: id % 5 + 1
    )
  }

  /// The orders a filter keeps, in id order.
  public static func orders(matching filter: OrderFilter) -> [Order] {
    switch filter {
    case .all: all
    case .status(let status): all.filter { $0.status == status }
    case .noOrders: []
    }
  }

  /// The page a request asks for, honouring its simulation.
  public static func page(for request: PageRequest) throws(OrdersError) -> OrdersPage {
    if request.simulation.failure { throw .networkConnection }
    let matching = request.simulation.empty ? [] : orders(matching: request.filter)
    let start = min(request.page * request.perPage, matching.count)
    let end = min(start + request.perPage, matching.count)
    return OrdersPage(
      items: Array(matching[start..<end]), page: request.page, hasMorePages: end < matching.count)
  }
}
