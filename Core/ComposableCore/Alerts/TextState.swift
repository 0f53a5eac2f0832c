import CustomDump

/// Text a feature puts in its state for an alert, a dialog or a button: a plain, comparable
/// string, so tests can assert it.
public struct TextState: Equatable, Hashable, Sendable, ExpressibleByStringInterpolation,
  CustomStringConvertible, CustomDumpStringConvertible
{
  /// The text.
  public let string: String

  /// Text with the given content.
  public init(_ string: some StringProtocol) {
    self.string = String(string)
  }

  /// Text with exactly the given content.
  public init(verbatim string: String) {
    self.string = string
  }

  /// Text written as a literal.
  public init(stringLiteral value: String) {
    self.string = value
  }

  /// The text itself.
  public var description: String { string }

  /// Dumps as `TextState("…")`.
  public var customDumpDescription: String { "TextState(\(String(customDumping: string)))" }
}
