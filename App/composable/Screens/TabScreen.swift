import TerminalUI

/// One tab of the app: it owns what only the terminal knows of it (cursor, focus, which field is
/// typed into), draws from its own scoped store and turns its keys into that store's actions.
@MainActor
protocol TabScreen: AnyObject {
  /// The lines under the tab bar, and the keys worth showing on the help line.
  func body(_ frame: Frame) -> ScreenBody
  /// Handles a key; `false` when the screen has no use for it, so the app's own keys apply.
  func handle(_ key: KeyEvent) -> Bool
  /// Whether a text field has the keyboard: then every printable key is typed, `q` included.
  var isTyping: Bool { get }
  /// Whether something on screen moves on its own (a spinner, a countdown) and needs ticks.
  var isBusy: Bool { get }
  /// Every key of the screen and what it does, for the help screen.
  var keys: [KeyHelp] { get }
  /// The tab became the visible one.
  func appear()
}

extension TabScreen {
  func appear() {}
}

/// What a screen needs to know of the moment it is drawn.
struct Frame {
  /// The spinner's current glyph.
  var spin: String
  /// Rows available to the body.
  var height: Int
  /// When the frame is drawn, for countdowns.
  var now: ContinuousClock.Instant
}

/// What a screen draws under the tabs, and the keys its help line shows.
struct ScreenBody {
  var lines: [Line]
  var hints: String
}

/// A key and what it does.
struct KeyHelp {
  var key: String
  var meaning: String

  init(_ key: String, _ meaning: String) {
    self.key = key
    self.meaning = meaning
  }
}

extension KeyEvent {
  /// The text after this key in a text field: characters append, Backspace deletes; `nil` for
  /// any other key.
  func edit(_ text: String) -> String? {
    switch self {
    case .character(let character): text + String(character)
    case .backspace: String(text.dropLast())
    default: nil
    }
  }
}

/// The value after `value` among all of its kind, wrapping round: what a key that cycles through
/// choices picks.
func next<Value: CaseIterable & Equatable>(after value: Value) -> Value {
  let all = Array(Value.allCases)
  return all[((all.firstIndex(of: value) ?? -1) + 1) % all.count]
}

/// A cursor kept within a list of `count` rows.
func clamped(_ cursor: Int, count: Int) -> Int {
  min(max(cursor, 0), max(count - 1, 0))
}
