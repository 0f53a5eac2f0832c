/// Text on its way to a terminal: any string made safe to draw, then measured, cut and wrapped in
/// terminal columns rather than characters.
///
/// Invariant: what ``sanitized(_:)`` returns contains no character a terminal acts on (C0 and C1
/// controls, DEL, bidirectional overrides, invisible format characters) and no character that
/// combines with what is drawn before it, so the columns ``columns(_:)`` counts are the columns
/// the terminal moves.
public enum TerminalText {
  /// `text` with every character that would move the cursor, restyle, reorder or hide text shown
  /// visibly instead: Escape as `\e`, line breaks as `⏎`, tabs as `⇥`, other controls in caret
  /// or `\u{…}` form, and a combining mark with nothing to combine with on a dotted circle.
  public static func sanitized(_ text: String) -> String {
    // Most text needs nothing: return it without copying.
    guard text.contains(where: needsEscaping) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      if needsEscaping(character) {
        result += escaped(character)
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// How many columns a terminal gives `character`: 2 for East Asian wide and emoji, 1 otherwise.
  /// Combining marks and joiners inside a character add nothing.
  public static func columns(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.count > 1 {
      if scalars.contains("\u{FE0F}") { return 2 }
      if scalars.contains("\u{FE0E}") { return 1 }
    }
    return isWide(first) ? 2 : 1
  }

  /// How many columns `text` takes once sanitised.
  public static func columns(_ text: String) -> Int {
    sanitized(text).reduce(0) { $0 + columns(of: $1) }
  }

  /// `text`, sanitised and cut to at most `width` columns, ending with `…` where it was cut. A
  /// wide character that would straddle the edge is left out whole.
  public static func truncated(_ text: String, to width: Int) -> String {
    let safe = sanitized(text)
    guard width > 0 else { return "" }
    var used = 0
    // Where `…` goes should the text not fit: before the first character that leaves no room
    // for it.
    var cut: String.Index?
    for index in safe.indices {
      used += columns(of: safe[index])
      if used > width - 1, cut == nil { cut = index }
      if used > width { return String(safe[..<cut!]) + "…" }
    }
    return safe
  }

  /// `text`, sanitised, cut to `width` columns and padded with spaces to exactly that many.
  public static func padded(_ text: String, to width: Int, with pad: Character = " ") -> String {
    let cut = truncated(text, to: width)
    let used = cut.reduce(0) { $0 + columns(of: $1) }
    return cut + String(repeating: pad, count: max(width - used, 0))
  }

  /// `text`, sanitised, in lines of at most `width` columns, broken after spaces where a line has
  /// one and inside a word where it does not. Line breaks in `text` start new lines.
  public static func wrapped(_ text: String, to width: Int) -> [String] {
    let width = max(width, 1)
    var lines: [String] = []
    for paragraph in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      var line = ""
      var used = 0
      // Where the line last had a space: the break point if the next word does not fit.
      var lastSpace: (index: String.Index, used: Int)?
      for var character in sanitized(String(paragraph)) {
        var size = columns(of: character)
        // A wide character in a single column cannot be shown: it is cut, as truncation does.
        if size > width { (character, size) = ("…", 1) }
        if used + size > width {
          if let space = lastSpace, character != " " {
            let rest = String(line[line.index(after: space.index)...])
            lines.append(String(line[..<space.index]))
            line = rest
            used -= space.used + 1
          }
          if used + size > width {
            lines.append(line)
            line = ""
            used = 0
          }
          lastSpace = nil
          if character == " " { continue }
        }
        if character == " " { lastSpace = (line.endIndex, used) }
        line.append(character)
        used += size
      }
      lines.append(line)
    }
    return lines
  }

  private static func needsEscaping(_ character: Character) -> Bool {
    guard let first = character.unicodeScalars.first else { return false }
    if first.value < 0x20 || (0x7F...0x9F).contains(first.value) { return true }
    switch first.properties.generalCategory {
    // Invisible and direction-changing characters stand alone, between graphemes.
    case .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
      return true
    // A mark at the start of a character had nothing before it to combine with. (A spacing
    // mark takes a column of its own, as terminals draw it.)
    case .nonspacingMark, .enclosingMark: return true
    default: return false
    }
  }

  private static func escaped(_ character: Character) -> String {
    var result = ""
    for scalar in character.unicodeScalars {
      switch scalar.value {
      case 0x1B: result += "\\e"
      case 0x0A, 0x0D, 0x2028, 0x2029:
        // CR LF is one character: one mark.
        if scalar.value != 0x0A || !result.hasSuffix("⏎") { result += "⏎" }
      case 0x09: result += "⇥"
      case 0x00..<0x20: result += "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
      case 0x7F: result += "^?"
      default:
        let code = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark:
          // Drawn on a dotted circle, as type specimens show a lone mark, where the two make one
          // character (so that sanitising again leaves them be); else as its code.
          let onCircle = "◌" + String(scalar)
          result += result.isEmpty ? (onCircle.count == 1 ? onCircle : code) : String(scalar)
        default:
          result += code
        }
      }
    }
    return result
  }

  /// East Asian Wide and Fullwidth characters, and those shown as emoji by default: the ones a
  /// terminal's `wcwidth` gives two columns.
  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x1100 { return false }
    if scalar.properties.isEmojiPresentation { return true }
    return wideRanges.contains { $0.contains(value) }
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
    0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
    0x17000...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD,
    0x30000...0x3FFFD,
  ]
}
