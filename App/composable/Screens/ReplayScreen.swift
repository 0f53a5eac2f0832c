import ComposableCore
import Dispatch
import Foundation
import TerminalUI

/// `replay --step`: moves through a replayed recording one action at a time, showing what each
/// action changed in the state. Without a terminal, prints every step in order.
@MainActor
final class ReplayStepper {
  let feature: FeatureName
  /// The state before the first action, as custom-dump prints it.
  let initial: String
  let steps: [SessionReplay.Step]
  /// 0 is the initial state; k is the state after the k-th action.
  private(set) var position = 0
  private let terminal = Terminal()

  init(feature: FeatureName, initial: String, steps: [SessionReplay.Step]) {
    self.feature = feature
    self.initial = initial
    self.steps = steps
  }

  func run() async throws {
    guard terminal.isInteractive else {
      for position in steps.indices.map({ $0 + 1 }) {
        print(Self.lines(of: position, initial: initial, steps: steps).joined(separator: "\n"))
        print()
      }
      return
    }
    do {
      try terminal.start { DispatchQueue.main.async { MainActor.assumeIsolated { self.draw() } } }
    } catch {
      throw Failure("cannot use the terminal: \(error)")
    }
    defer { terminal.stop() }
    draw()
    var decoder = KeyDecoder()
    for await bytes in terminal.inputBytes() {
      for key in decoder.decode(bytes) + (bytes == [0x1B] ? decoder.flush() : []) {
        switch key {
        case .left, .character("h"), .backspace: position = max(position - 1, 0)
        case .right, .character("l"), .character(" "), .enter:
          position = min(position + 1, steps.count)
        case .character("g"): position = 0
        case .character("G"): position = steps.count
        case .character("q"), .escape, .control("c"): return
        default: break
        }
      }
      draw()
    }
  }

  private func draw() {
    let (width, height) = terminal.size
    terminal.write(
      Self.screen(
        position, initial: initial, steps: steps, feature: feature, width: width, height: height
      )
      .ansi(color: true))
  }

  /// The step at `position` drawn at `width`×`height`.
  static func screen(
    _ position: Int, initial: String, steps: [SessionReplay.Step], feature: FeatureName,
    width: Int, height: Int
  ) -> Screen {
    var screen = Screen(width: width, height: height)
    let title =
      position == 0
      ? "Replay of \(feature.rawValue): the start, before \(steps.count) actions"
      : "Replay of \(feature.rawValue): action \(position) of \(steps.count)"
    screen.put(title, row: 0, style: .inverse)
    let body = lines(of: position, initial: initial, steps: steps)
    for (row, line) in body.prefix(max(height - 2, 0)).enumerated() {
      let style: Screen.Style? =
        line.hasPrefix("+ ") ? .bold : line.hasPrefix("− ") ? .dim : nil
      screen.put(line, row: row + 1, style: style)
    }
    screen.put("←/→ step  g/G first/last  q quit", row: height - 1, style: .dim)
    return screen
  }

  /// What the step at `position` shows: the action and the lines of state it changed, or the
  /// whole initial state.
  static func lines(of position: Int, initial: String, steps: [SessionReplay.Step]) -> [String] {
    guard position > 0 else { return initial.components(separatedBy: "\n") }
    let step = steps[position - 1]
    let before = position == 1 ? initial : steps[position - 2].state
    let difference = SessionReplay.lineDiff(from: before, to: step.state)
    // The action on one line: custom-dump's lines, indentation dropped.
    let action = step.action.split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
      .replacing("( ", with: "(").replacing(" )", with: ")")
    return ["#\(step.seq) \(action)", ""]
      + (difference.isEmpty
        ? ["(the state did not change)"] : difference.components(separatedBy: "\n"))
  }
}
