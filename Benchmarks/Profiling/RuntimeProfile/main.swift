import ComposableCore
import Foundation

// Usage: RuntimeProfile root|scoped1|scoped10|rows|<nesting> [sends], where <nesting> is one of
// ifLet, scope, presentation, genericIfLet, genericScope, genericPresentation (ten levels).
// Runs the scenario's sends in a loop and prints the mean time per send; under callgrind, divide
// the instruction count of `Store.send` by the number of sends.

@MainActor
func run(_ arguments: [String]) -> Bool {
  let scenario = arguments.first ?? "scoped10"
  guard let sends = Int(arguments.dropFirst().first ?? "100000"), sends > 0 else { return false }
  let store: StoreOf<Counter>
  switch scenario {
  case "root": store = Store(initialState: Counter.State()) { Counter() }
  case "scoped1": store = leafStore(levels: 1)
  case "scoped10": store = leafStore(levels: 10)
  case "rows":
    let rows = rowsStore(count: 1_000)
    let start = ContinuousClock.now
    for _ in 0..<sends { rows.send(.rows(.element(id: 500, action: .increment))) }
    report(scenario, sends, ContinuousClock.now - start)
    precondition(rows.state.rows[id: 500]?.counter.count == sends)
    return true
  default:
    guard let nesting = Nesting(rawValue: scenario) else { return false }
    store = nesting.leaf()
  }
  let start = ContinuousClock.now
  for _ in 0..<sends { store.send(.increment) }
  report(scenario, sends, ContinuousClock.now - start)
  precondition(store.state.count == sends)
  return true
}

func report(_ scenario: String, _ sends: Int, _ elapsed: Duration) {
  let nanoseconds =
    Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
  print(scenario, sends, "sends:", String(format: "%.1f ns/send", nanoseconds / Double(sends)))
}

if !run(Array(CommandLine.arguments.dropFirst())) {
  print("usage: RuntimeProfile root|scoped1|scoped10|rows|<nesting> [sends]")
  exit(64)
}
