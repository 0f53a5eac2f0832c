import ComposableCore
import CounterFeature
import TerminalUI

/// The counter tab: the count, its timer, a fact about the count.
@MainActor
enum CounterScreen {
  static func render(_ counter: StoreOf<Counter>, spin: String) -> ScreenBody {
    var lines: [Line] = [("Count: \(counter.count)", .bold)]
    let timer = counter.isTimerRunning ? "running \(spin)" : "stopped"
    lines.append(("Timer: \(timer), every \(counter.timerInterval.rawValue) s", nil))
    if counter.isLoadingFact {
      lines.append(("\(spin) Fetching a fact about \(counter.count)…", .dim))
    }
    return (lines, "+/- count  r reset  t timer  i interval  f fact  1-5 tabs  q quit")
  }

  static func isBusy(_ counter: Counter.State) -> Bool {
    counter.isLoadingFact || counter.isTimerRunning
  }

  static func handle(_ key: KeyEvent, counter: StoreOf<Counter>) {
    switch key {
    case .character("+"), .character("="), .up: counter.send(.incrementButtonTapped)
    case .character("-"), .down: counter.send(.decrementButtonTapped)
    case .character("r"): counter.send(.resetButtonTapped)
    case .character("t"): counter.send(.toggleTimerButtonTapped)
    case .character("i"): counter.send(.timerIntervalSelected(next(after: counter.timerInterval)))
    case .character("f"): counter.send(.factButtonTapped)
    default: break
    }
  }
}

/// The value after `value` among all of its kind, wrapping round: what a key that cycles through
/// choices picks.
func next<Value: CaseIterable & Equatable>(after value: Value) -> Value {
  let all = Array(Value.allCases)
  return all[((all.firstIndex(of: value) ?? -1) + 1) % all.count]
}
