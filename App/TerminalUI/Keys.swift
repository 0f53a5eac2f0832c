/// A key the user pressed, decoded from the bytes a terminal sends.
public enum KeyEvent: Equatable, Sendable {
  /// A printable character, including any UTF-8 one.
  case character(Character)
  /// Return.
  case enter
  /// Escape, alone.
  case escape
  /// Tab.
  case tab
  /// Shift-Tab.
  case backTab
  /// Backspace or Delete.
  case backspace
  /// An arrow key.
  case up, down, left, right
  /// Control and a letter, e.g. `.control("c")` for Ctrl-C.
  case control(Character)
}

/// Turns terminal input bytes into key events. Keeps incomplete sequences (a UTF-8 character or
/// an escape sequence split across reads) until the rest arrives.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// A decoder with nothing pending.
  public init() {}

  /// Decodes as many keys as `bytes` (after anything pending) complete.
  public mutating func decode(_ bytes: [UInt8]) -> [KeyEvent] {
    pending += bytes
    var events: [KeyEvent] = []
    var index = 0
    while index < pending.count {
      guard let (event, length) = Self.decodeOne(pending[index...]) else { break }
      if let event { events.append(event) }
      index += length
    }
    pending.removeFirst(index)
    return events
  }

  /// The keys in one read of input. A read of Escape alone is the Escape key: a terminal sends an
  /// escape sequence in one write, so nothing more of it is coming.
  public mutating func keys(in bytes: [UInt8]) -> [KeyEvent] {
    decode(bytes) + (bytes == [0x1B] ? flush() : [])
  }

  /// Ends input: a lone pending escape is the Escape key.
  public mutating func flush() -> [KeyEvent] {
    defer { pending.removeAll() }
    return pending == [0x1B] ? [.escape] : []
  }

  /// One event and how many bytes it used; `nil` when more bytes are needed. An event of `nil`
  /// skips bytes that mean nothing.
  static func decodeOne(_ bytes: ArraySlice<UInt8>) -> (KeyEvent?, Int)? {
    let first = bytes[bytes.startIndex]
    switch first {
    case 0x1B:
      guard bytes.count >= 2 else { return nil }
      let second = bytes[bytes.startIndex + 1]
      guard second == UInt8(ascii: "[") || second == UInt8(ascii: "O") else { return (.escape, 1) }
      guard bytes.count >= 3 else { return nil }
      switch bytes[bytes.startIndex + 2] {
      case UInt8(ascii: "A"): return (.up, 3)
      case UInt8(ascii: "B"): return (.down, 3)
      case UInt8(ascii: "C"): return (.right, 3)
      case UInt8(ascii: "D"): return (.left, 3)
      case UInt8(ascii: "Z"): return (.backTab, 3)
      default:
        // Another CSI sequence (e.g. Delete `ESC [ 3 ~`): skip to its final byte.
        var end = bytes.startIndex + 2
        while end < bytes.endIndex, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.endIndex else { return nil }
        let length = end - bytes.startIndex + 1
        return (bytes[bytes.startIndex + 2] == UInt8(ascii: "3") ? .backspace : nil, length)
      }
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A:
      return (.control(Character(UnicodeScalar(first + 0x60))), 1)
    case 0x00..<0x20:
      return (nil, 1)
    default:
      let length: Int
      switch first {
      case 0x00..<0x80: length = 1
      case 0xC0..<0xE0: length = 2
      case 0xE0..<0xF0: length = 3
      case 0xF0..<0xF8: length = 4
      default: return (nil, 1)
      }
      guard bytes.count >= length else { return nil }
      let scalarBytes = Array(bytes[bytes.startIndex..<(bytes.startIndex + length)])
      guard let text = String(validating: scalarBytes, as: UTF8.self), let character = text.first
      else { return (nil, 1) }
      return (.character(character), length)
    }
  }
}
