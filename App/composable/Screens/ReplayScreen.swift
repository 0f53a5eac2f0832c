import ComposableCore
import Foundation
import TerminalUI

/// `replay --step`: moves through a replayed recording one action at a time, showing what each
/// action changed in the state. Without a terminal, prints every step in order.
@MainActor
final class ReplayStepper: TerminalProgram {
  let feature: FeatureName
  /// The state before the first action, as custom-dump prints it.
  let initial: String
  let steps: [SessionReplay.Step]
  /// 0 is the initial state; k is the state after the k-th action.
  private(set) var position = 0

  init(feature: FeatureName, initial: String, steps: [SessionReplay.Step]) {
    self.feature = feature
    self.initial = initial
    self.steps = steps
  }

  func run() async throws {
    let terminal = Terminal()
    guard terminal.fullScreenProblem() == nil else {
      for position in steps.indices.map({ $0 + 1 }) {
        print(
          Self.lines(of: position, initial: initial, steps: steps)
            .map(TerminalText.sanitized).joined(separator: "\n"))
        print()
      }
      return
    }
    do {
      try await terminal.run(self, color: true)
    } catch {
      throw Failure("cannot use the terminal: \(error)")
    }
  }

  func update(_ event: TerminalEvent) -> TerminalStep {
    switch event {
    case .key(.left), .key(.character("h")), .key(.backspace): position = max(position - 1, 0)
    case .key(.right), .key(.character("l")), .key(.character(" ")), .key(.enter):
      position = min(position + 1, steps.count)
    case .key(.character("g")): position = 0
    case .key(.character("G")): position = steps.count
    case .key(.character("q")), .key(.escape), .key(.control("c")), .interrupted, .terminated,
      .hungUp, .inputEnded:
      return .exit
    default: break
    }
    return .continue
  }

  func draw(into screen: inout Screen) {
    screen = Self.screen(
      position, initial: initial, steps: steps, feature: feature, width: screen.width,
      height: screen.height)
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
