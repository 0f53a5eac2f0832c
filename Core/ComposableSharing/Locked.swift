import Foundation

/// A value that several threads reach, behind a lock.
///
/// Not `Synchronization.Mutex`: on Linux its lock is out of ThreadSanitizer's sight, so every
/// access made under it is reported as a race (in a feature's tests as in ours), where an
/// `NSRecursiveLock` is a pthread mutex, which ThreadSanitizer follows. Nor `LockIsolated`, whose
/// `withValue` changes a copy and writes it back, copying a whole collection for each change.
/// Give it a value that is not empty: ThreadSanitizer took `Locked<Void>`'s accesses, made under
/// the lock, for races.
package final class Locked<Value: Sendable>: @unchecked Sendable {
  // Unchecked: `value` is only reached holding `lock`.
  /// Recursive: a change that reaches the same value again (a shared value's `withLock` whose
  /// closure reads the value) stops at Swift's exclusivity check, with a message, rather than
  /// hanging on the lock.
  private let lock = NSRecursiveLock()
  private var value: Value

  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` on the value, which it may change, holding the lock.
  // Always inlined: out of line, a generic caller's closure looked up its type metadata on every
  // call, a shared value's every write and read among them.
  @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
