/// A fixed-size grid of text lines that a program fills, then turns into what a terminal should
/// show. Every line goes through ``TerminalText``: no text put here can move the cursor or spill
/// past the width.
public struct Screen: Equatable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// The rows, each at most `width` columns, sanitised, without styling.
  public private(set) var lines: [String]
  private var styles: [Style?]

  /// How a row is drawn when colour is on.
  public enum Style: Equatable, Sendable {
    /// Reverse video, for the selected row and bars.
    case inverse
    /// Bold, for titles.
    case bold
    /// Red, for errors.
    case error
    /// Dim, for hints.
    case dim
  }

  /// An empty screen of the given size.
  public init(width: Int, height: Int) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    lines = Array(repeating: "", count: self.height)
    styles = Array(repeating: nil, count: self.height)
  }

  /// Writes `text` on `row`, sanitised and cut to the width in columns; rows outside the screen
  /// are ignored.
  public mutating func put(_ text: String, row: Int, style: Style? = nil) {
    guard lines.indices.contains(row) else { return }
    lines[row] = TerminalText.truncated(text, to: width)
    styles[row] = style
  }

  /// Writes `line` on `row`.
  public mutating func put(_ line: Line, row: Int) {
    put(line.text, row: row, style: line.style)
  }

  /// The screen as plain text, one line per row with trailing spaces removed: what tests and
  /// snapshots compare.
  public var text: String {
    lines.map { $0.replacing(/\s+$/, with: "") }.joined(separator: "\n")
  }

  /// The bytes that draw the screen from the top-left corner, with ANSI styles when `color`.
  public func ansi(color: Bool) -> String {
    var output = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      output += "\u{1B}[2K"
      if color, let style = styles[index] {
        // Rows are already sanitised and cut to the width: only the padding is left to add.
        let used = line.reduce(0) { $0 + TerminalText.columns(of: $1) }
        output += style.code + line + String(repeating: " ", count: max(width - used, 0))
        output += "\u{1B}[0m"
      } else {
        output += line
      }
      if index < lines.count - 1 { output += "\r\n" }
    }
    return output
  }

}

extension Screen.Style {
  var code: String {
    switch self {
    case .inverse: "\u{1B}[7m"
    case .bold: "\u{1B}[1m"
    case .error: "\u{1B}[31m"
    case .dim: "\u{1B}[2m"
    }
  }
}

extension Screen {
  /// Puts `content` in a bordered box centred above the screen's last row, over whatever is
  /// there. Lines longer than the box wrap; the box is as wide as its longest line, within the
  /// screen, and a box taller than the screen ends with `…`.
  public mutating func box(_ content: [String], title: String) {
    let widest = content.map(TerminalText.columns).max() ?? 0
    let inner = max(min(max(widest, TerminalText.columns(title) + 2, 20), width - 4), 1)
    var shown = content.flatMap { TerminalText.wrapped($0, to: inner) }
    // The box keeps the screen's last row free, for a help line, and says when it is cut.
    let room = max(height - 3, 1)
    if shown.count > room { shown = shown.prefix(room - 1) + ["…"] }
    let top = max((height - 1 - shown.count - 2) / 2, 0)
    let left = String(repeating: " ", count: max((width - inner - 4) / 2, 0))
    put(
      left + "┌─" + TerminalText.padded(title, to: inner, with: "─") + "─┐", row: top, style: .bold)
    for (offset, line) in shown.enumerated() {
      put(left + "│ " + TerminalText.padded(line, to: inner) + " │", row: top + 1 + offset)
    }
    put(left + "└" + String(repeating: "─", count: inner + 2) + "┘", row: top + 1 + shown.count)
  }
}

/// A line of text and how it is styled when colour is on.
public struct Line: Equatable, Sendable {
  /// What the line says.
  public var text: String
  /// Its style, when colour is on.
  public var style: Screen.Style?

  /// A line of `text` in `style`.
  public init(_ text: String, _ style: Screen.Style? = nil) {
    self.text = text
    self.style = style
  }

  /// A row of a list or form: a marker column shows the selected one whether or not colour is
  /// on, and colour shows it in reverse video as well.
  public static func item(_ text: String, selected: Bool) -> Line {
    Line((selected ? "› " : "  ") + text, selected ? .inverse : nil)
  }
}
