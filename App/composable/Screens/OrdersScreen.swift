import ComposableCore
import Foundation
import OrdersClient
import RefreshableListFeature
import TerminalUI

/// The orders tab: pages of orders, refreshing, retrying, filtering.
@MainActor
enum OrdersScreen {
  /// Where the cursor is.
  struct ViewState {
    var cursor = 0
  }

  static func render(
    _ list: StoreOf<RefreshableList>, view: AppViewState, spin: String, height: Int
  ) -> ScreenBody {
    var lines: [Line] = []
    var status = "Filter: \(list.selectedFilter.name)"
    // The demo's switches are a debug setting of the app, not the feature's state.
    @Dependency(\.orderSimulation) var simulation
    if simulation.current.failure { status += "  [simulating errors]" }
    if simulation.current.empty { status += "  [simulating empty]" }
    if list.isStale { status += "  (cached, refreshing…)" }
    lines.append((status, .bold))
    if let banner = list.refreshErrorInfo {
      lines.append(("⚠ \(banner.description)  R retries", .error))
    }
    if let retry = list.pendingRetry {
      let delay = retry.delay.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))
      lines.append(("\(spin) Retry \(retry.attempt) of 3 in \(delay)…", .dim))
    }
    let pageState = list.pageState
    switch pageState {
    case .idle:
      lines.append(("Nothing loaded yet.", .dim))
    case .loading(let kind):
      lines.append(("\(spin) \(kind == .refresh ? "Refreshing" : "Loading")…", .dim))
    case .failed(_, let info):
      lines.append(("✗ \(info.description)", .error))
      lines.append(("Press R to retry.", nil))
    case .loaded:
      break
    }
    let orders = list.visibleOrders
    if case .loaded = pageState, orders.isEmpty { lines.append(("No orders.", .dim)) }
    let window = max(height - lines.count - 1, 1)
    let cursor = view.orders.cursor
    let start = min(max(cursor - window + 1, 0), max(orders.count - window, 0))
    for (index, order) in orders.enumerated().dropFirst(start).prefix(window) {
      let total = String(format: "%d.%02d", order.totalCents / 100, order.totalCents % 100)
      let status = order.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
      let line = "\(order.number)  \(status) \(total.leftPadded(to: 8))  \(order.customer)"
      lines.append((line, index == cursor ? .inverse : nil))
    }
    if case .loaded(_, let footer) = pageState {
      switch footer {
      case .idle: lines.append(("↓ more: press n", .dim))
      case .loading: lines.append(("\(spin) Loading more…", .dim))
      case .noMore: lines.append(("— end of list —", .dim))
      case .failed(let info): lines.append(("✗ \(info.description)  R retries", .error))
      }
    }
    if list.showLoadingOverlay, pageState.content == nil {
      lines.append(("\(spin) Please wait…", .inverse))
    }
    return (lines, "↑/↓ move  n more  r refresh  f filter  e errors  m empty  R retry  q quit")
  }

  static func handle(_ key: KeyEvent, list: StoreOf<RefreshableList>, view: inout AppViewState) {
    @Dependency(\.orderSimulation) var orderSimulation
    let count = list.visibleOrders.count
    switch key {
    case .up: view.orders.cursor = max(view.orders.cursor - 1, 0)
    case .down:
      if view.orders.cursor >= count - 1 {
        list.send(.loadMore)
      } else {
        view.orders.cursor += 1
      }
    case .character("n"): list.send(.loadMore)
    case .character("r"): list.send(.pullToRefresh)
    case .character("R"): list.send(.retry)
    case .character("e"): orderSimulation.toggleFailure()
    case .character("m"): orderSimulation.toggleEmpty()
    case .character("f"):
      let all = OrderFilter.allCases
      list.send(
        .selectFilter(all[((all.firstIndex(of: list.selectedFilter) ?? 0) + 1) % all.count]))
      view.orders.cursor = 0
    default: break
    }
  }
}
