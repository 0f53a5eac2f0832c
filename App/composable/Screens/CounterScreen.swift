import ComposableCore
import CounterFeature
import TerminalUI

/// The counter tab: the count, its timer, a fact about the count.
@MainActor
final class CounterScreen: TabScreen {
  let store: StoreOf<Counter>

  init(store: StoreOf<Counter>) {
    self.store = store
  }

  var isTyping: Bool { false }
  var isBusy: Bool { store.isLoadingFact || store.isTimerRunning }

  func body(_ frame: Frame) -> ScreenBody {
    var lines = [Line("Count: \(store.count)", .bold)]
    let timer = store.isTimerRunning ? "running \(frame.spin)" : "stopped"
    lines.append(Line("Timer: \(timer), every \(store.timerInterval.rawValue) s"))
    if store.isLoadingFact {
      lines.append(Line("\(frame.spin) Fetching a fact about \(store.count)…", .dim))
    }
    return ScreenBody(lines: lines, hints: "+/- count  r reset  t timer  i interval  f fact")
  }

  let keys = [
    KeyHelp("+ or ↑", "count up"), KeyHelp("- or ↓", "count down"), KeyHelp("r", "reset"),
    KeyHelp("t", "start or stop the timer"), KeyHelp("i", "change the timer's interval"),
    KeyHelp("f", "fetch a fact about the count"),
  ]

  func handle(_ key: KeyEvent) -> Bool {
    switch key {
    case .character("+"), .character("="), .up: store.send(.incrementButtonTapped)
    case .character("-"), .down: store.send(.decrementButtonTapped)
    case .character("r"): store.send(.resetButtonTapped)
    case .character("t"): store.send(.toggleTimerButtonTapped)
    case .character("i"): store.send(.timerIntervalSelected(next(after: store.timerInterval)))
    case .character("f"): store.send(.factButtonTapped)
    default: return false
    }
    return true
  }
}
