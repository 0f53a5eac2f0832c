/// A fixed-size grid of text lines that a renderer fills, then turns into what a terminal
/// should show. Lines are clipped to the width; the help line can be pinned to the bottom.
public struct Screen: Equatable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// The rows, each at most `width` characters, without styling.
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

  /// Writes `text` on `row`, clipped to the width; rows outside the screen are ignored.
  public mutating func put(_ text: String, row: Int, style: Style? = nil) {
    guard lines.indices.contains(row) else { return }
    lines[row] = Self.clip(text, to: width)
    styles[row] = style
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
        output +=
          style.code + line.padding(toLength: width, withPad: " ", startingAt: 0) + "\u{1B}[0m"
      } else {
        output += line
      }
      if index < lines.count - 1 { output += "\r\n" }
    }
    return output
  }

  /// Clips by characters, so a multi-byte character is never cut in half.
  static func clip(_ text: String, to width: Int) -> String {
    text.count <= width ? text : String(text.prefix(max(width - 1, 0))) + "…"
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

/// Draws a modal box, such as an alert, centred over the middle of a screen.
extension Screen {
  /// Puts `content` in a bordered box centred on the screen, over whatever is there.
  public mutating func box(_ content: [String], title: String) {
    let inner = min(max(content.map(\.count).max() ?? 0, title.count + 2, 20), width - 4)
    let top = max((height - content.count - 2) / 2, 1)
    let left = String(repeating: " ", count: max((width - inner - 4) / 2, 0))
    put(
      left + "┌─"
        + Self.clip(title, to: inner).padding(toLength: inner, withPad: "─", startingAt: 0) + "─┐",
      row: top, style: .bold)
    for (offset, line) in content.enumerated() {
      put(
        left + "│ "
          + Self.clip(line, to: inner).padding(toLength: inner, withPad: " ", startingAt: 0) + " │",
        row: top + 1 + offset)
    }
    put(left + "└" + String(repeating: "─", count: inner + 2) + "┘", row: top + 1 + content.count)
  }
}
