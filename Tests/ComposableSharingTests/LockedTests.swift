import ComposableSharing
import Foundation
import Testing

struct LockedTests {
  /// Four threads change one value at once; no change is lost. (Under ThreadSanitizer, as in
  /// `.ci/run`, any access the lock did not order is reported as well.)
  @Test func changesFromManyThreadsAreNeverLost() async {
    let counter = Locked((count: 0, last: -1))
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for _ in 0..<5_000 {
            counter.withLock {
              $0.count += 1
              $0.last = thread
            }
          }
        }
      }
    }
    let (count, last) = counter.withLock { ($0.count, $0.last) }
    #expect(count == 20_000)
    #expect((0..<4).contains(last))
  }

  @Test func aThrowingChangeStillUnlocks() {
    struct Refused: Error {}
    let value = Locked(1)
    #expect(throws: Refused.self) {
      try value.withLock { (number: inout Int) throws -> Void in
        number = 2
        throw Refused()
      }
    }
    // The lock was released (a second `withLock` would otherwise wait forever), and what the
    // failed change wrote stays: the lock orders changes, it does not roll them back.
    #expect(value.withLock { $0 } == 2)
  }

  /// A change that reaches the same value again stops the process at Swift's exclusivity check,
  /// which names both accesses, instead of waiting forever on its own lock.
  @Test func aChangeReachingItsOwnValueStopsInsteadOfHanging() async {
    await #expect(processExitsWith: .failure) {
      let value = Locked(0)
      value.withLock { outer in
        outer = value.withLock { $0 + 1 }
      }
    }
  }
}
