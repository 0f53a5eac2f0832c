/// A debug record of stores being made and released, for tests of a store's lifetime: off until
/// a test turns it on, and only in debug builds, so a release build pays nothing.
@_spi(Logging)
@MainActor
public final class Logger {
  /// The record every store writes to.
  public static let shared = Logger()

  /// Whether stores write to ``logs``.
  public var isEnabled = false

  /// What was written, oldest first: `Store<State, Action>.init`, `….deinit`.
  public private(set) var logs: [String] = []

  /// Appends `message` while the record is on.
  public func log(_ message: @autoclosure () -> String) {
    guard isEnabled else { return }
    logs.append(message())
  }

  /// Forgets what was written.
  public func clear() {
    logs.removeAll()
  }
}
