import ComposableCore
import Foundation
import OrdersClient
import RefreshableListFeature
import TerminalUI

/// The orders tab: pages of orders, refreshing, retrying, filtering, and the demo's switches.
@MainActor
final class OrdersScreen: TabScreen {
  let store: StoreOf<RefreshableList>
  private var cursor = 0
  /// The retry being counted down and when it was first drawn: the list knows only its delay.
  private var countdown: (retry: RefreshableList.PendingRetry, since: ContinuousClock.Instant)?

  init(store: StoreOf<RefreshableList>) {
    self.store = store
  }

  var isTyping: Bool { false }
  var isBusy: Bool {
    store.inFlight != nil || store.pendingRetry != nil
  }

  func appear() {
    store.send(.onAppear)
  }

  func body(_ frame: Frame) -> ScreenBody {
    var lines: [Line] = []
    var status = "Filter: \(store.selectedFilter.name)"
    if store.simulation.failure { status += "  [simulating errors]" }
    if store.simulation.empty { status += "  [simulating empty]" }
    if store.isStale { status += "  (cached, refreshing…)" }
    lines.append(Line(status, .bold))
    if let banner = store.refreshErrorInfo {
      lines.append(Line("⚠ \(banner.description)  R retries", .error))
    }
    if let retry = store.pendingRetry {
      if countdown?.retry != retry { countdown = (retry, frame.now) }
      let left = max(retry.delay - (frame.now - countdown!.since), .zero)
      let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
      lines.append(
        Line(
          "\(frame.spin) Retry \(retry.attempt) of 3 in \(String(format: "%.1f", seconds)) s…",
          .dim))
    } else {
      countdown = nil
    }
    let pageState = store.pageState
    switch pageState {
    case .idle:
      lines.append(Line("Nothing loaded yet.", .dim))
    case .loading(let kind):
      lines.append(Line("\(frame.spin) \(kind == .refresh ? "Refreshing" : "Loading")…", .dim))
    case .failed(_, let info):
      lines.append(Line("✗ \(info.description)", .error))
      lines.append(Line("Press R to retry."))
    case .loaded:
      break
    }
    let orders = store.visibleOrders
    if case .loaded = pageState, orders.isEmpty { lines.append(Line("No orders.", .dim)) }
    let window = max(frame.height - lines.count - 1, 1)
    let cursor = clamped(cursor, count: orders.count)
    let start = min(max(cursor - window + 1, 0), max(orders.count - window, 0))
    for (index, order) in orders.enumerated().dropFirst(start).prefix(window) {
      let total = String(format: "%d.%02d", order.totalCents / 100, order.totalCents % 100)
      let status = order.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
      let line = "\(order.number)  \(status) \(total.leftPadded(to: 8))  \(order.customer)"
      lines.append(.item(line, selected: index == cursor))
    }
    if case .loaded(_, let footer) = pageState {
      switch footer {
      case .idle: lines.append(Line("↓ more: press n", .dim))
      case .loading: lines.append(Line("\(frame.spin) Loading more…", .dim))
      case .noMore: lines.append(Line("— end of list —", .dim))
      case .failed(let info): lines.append(Line("✗ \(info.description)  R retries", .error))
      }
    }
    if store.showLoadingOverlay, pageState.content == nil {
      lines.append(Line("\(frame.spin) Please wait…", .inverse))
    }
    return ScreenBody(
      lines: lines, hints: "↑/↓ move  n more  r refresh  f filter  R retry  e errors  m empty")
  }

  let keys = [
    KeyHelp("↑/↓", "move; ↓ on the last order loads more"), KeyHelp("n", "load more"),
    KeyHelp("r", "refresh"), KeyHelp("f", "change the filter"), KeyHelp("R", "retry now"),
    KeyHelp("e", "demo: make every request fail"), KeyHelp("m", "demo: make every page empty"),
  ]

  func handle(_ key: KeyEvent) -> Bool {
    let count = store.visibleOrders.count
    cursor = clamped(cursor, count: count)
    switch key {
    case .up: cursor = max(cursor - 1, 0)
    case .down:
      if cursor >= count - 1 { store.send(.loadMore) } else { cursor += 1 }
    case .character("n"): store.send(.loadMore)
    case .character("r"): store.send(.pullToRefresh)
    case .character("R"): store.send(.retry)
    case .character("e"):
      var simulation = store.simulation
      simulation.failure.toggle()
      store.send(.simulationChanged(simulation))
    case .character("m"):
      var simulation = store.simulation
      simulation.empty.toggle()
      store.send(.simulationChanged(simulation))
    case .character("f"):
      store.send(.selectFilter(next(after: store.selectedFilter)))
      cursor = 0
    default: return false
    }
    return true
  }
}
