import ConcurrencyExtras

/// Keeps Swift's global executor redirected to the main serial executor while any test store that
/// asked for it is alive, so effects run in a repeatable order.
///
/// The redirection is process-wide; counting users keeps one store's teardown from switching it
/// off under another store of a test running in parallel.
@MainActor
enum SerialExecution {
  private static var users = 0
  private static var wasEnabled = false

  static func retain() {
    if users == 0 { wasEnabled = uncheckedUseMainSerialExecutor }
    // Set by every new store, as TCA's does, even if a test switched it off meanwhile.
    uncheckedUseMainSerialExecutor = true
    users += 1
  }

  static func release() {
    users -= 1
    if users == 0 { uncheckedUseMainSerialExecutor = wasEnabled }
  }
}
