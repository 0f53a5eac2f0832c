/// How strictly a ``TestStore`` checks a test: every change and every action (`.on`), or only
/// what the test asserts (`.off`).
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and running effect must be asserted.
  case on
  /// Only what the test asserts is checked; with `showSkippedAssertions`, what it skipped is
  /// reported as expected issues, so it shows in the test log without failing the test.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without reporting what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
