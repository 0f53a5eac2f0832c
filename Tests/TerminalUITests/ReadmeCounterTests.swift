import ComposableCore
import Testing

@testable import TerminalUI

// The counter app the Terminal apps article (TerminalUI.docc) shows, as it is there, run here
// through the loop it would run in.

@Reducer
struct Counter {
  @ObservableState
  struct State: Equatable { var count = 0 }
  enum Action { case incrementButtonTapped, decrementButtonTapped }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped: state.count += 1
      case .decrementButtonTapped: state.count -= 1
      }
      return .none
    }
  }
}

@MainActor
final class CounterScreen: TerminalProgram {
  let store = Store(initialState: Counter.State()) { Counter() }

  func update(_ event: TerminalEvent) -> TerminalStep {
    switch event {
    case .key(.character("+")), .key(.up): store.send(.incrementButtonTapped)
    case .key(.character("-")), .key(.down): store.send(.decrementButtonTapped)
    case .key(.character("q")), .interrupted, .terminated, .hungUp, .inputEnded: return .exit
    default: break
    }
    return .continue
  }

  func draw(into screen: inout Screen) {
    screen.put("Count: \(store.count)", row: 0, style: .bold)
    screen.put("+/- count  q quit", row: screen.height - 1, style: .dim)
  }
}

@MainActor
struct ReadmeCounterTests {
  @Test func keysCountAndQuitEndsTheLoop() async {
    let loop = TerminalLoop(CounterScreen())
    var written: [String] = []
    for key: KeyEvent in [.character("+"), .character("+"), .down, .character("q")] {
      loop.send(.key(key))
    }
    await loop.run(size: { (20, 3) }, write: { written.append($0.text) })
    // The first screen, then one per key but the last, which quit.
    #expect(
      written == [
        "Count: 0\n\n+/- count  q quit", "Count: 1\n\n+/- count  q quit",
        "Count: 2\n\n+/- count  q quit", "Count: 1\n\n+/- count  q quit",
      ])
    #expect(loop.drawCount == 4)
  }

  @Test func aStoreChangeFromOutsideTheLoopRedraws() async {
    let loop = TerminalLoop(CounterScreen())
    let running = Task { await loop.run(size: { (20, 3) }, write: { _ in }) }
    let deadline = ContinuousClock.now + .seconds(30)
    while loop.drawCount < 1, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    loop.program.store.send(.incrementButtonTapped)
    while loop.drawCount < 2, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    #expect(loop.lastScreen?.text.hasPrefix("Count: 1") == true)
    loop.send(.terminated)
    await running.value
  }
}
