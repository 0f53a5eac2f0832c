import Foundation

/// A value that several threads reach, behind a lock.
///
/// Not `Synchronization.Mutex`: on Linux its lock is out of ThreadSanitizer's sight, so every
/// access made under it is reported as a race (in a feature's tests as in ours), where `NSLock`
/// is a pthread mutex, which ThreadSanitizer follows.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  // Unchecked: `value` is only reached holding `lock`.
  private let lock = NSLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value, which it may change, holding the lock.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
