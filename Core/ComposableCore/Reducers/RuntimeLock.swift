#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain mutex for the runtime's caches, which take it on every action: a bare
/// `pthread_mutex_t` costs a fraction of `NSLock` on Linux.
@usableFromInline
final class RuntimeLock: @unchecked Sendable {
  // The mutex must not move once initialised, so it lives in its own allocation.
  @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  @usableFromInline
  init() {
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock.
  @inlinable
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
