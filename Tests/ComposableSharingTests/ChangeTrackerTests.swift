@_spi(SharedChangeTracking) import ComposableSharing
import ConcurrencyExtras
import CustomDump
import Observation
import Testing

/// `SharedChangeTracker`, the SPI a test harness asserts shared changes through.
@Suite struct ChangeTrackerTests {
  @Test func assertComparesTheValueBeforeWithTheLiveOne() {
    @Shared(value: 0) var count
    @Shared(value: 0) var other
    let tracker = SharedChangeTracker(reportUnassertedChanges: false)
    tracker.track { $count.withLock { $0 += 1 } }
    #expect(tracker.hasChanges)

    tracker.assert {
      #expect($count != $count)
      #expect($count == $other)
      #expect(diff($count, $count) == "- 0\n+ 1")
      // The expected value: the live one does not move.
      $count.withLock { $0 = 1 }
      #expect($count == $count)
      #expect($count != $other)
    }
    #expect(count == 1)
    // Outside `assert`, both sides are the live value.
    #expect($count == $count)
  }

  @Test func aPartIsComparedThroughItsPath() {
    struct Pair: Equatable {
      var first = false
      var second = false
    }
    @Shared(value: Pair()) var pair
    let tracker = SharedChangeTracker(reportUnassertedChanges: false)
    tracker.track { $pair.first.withLock { $0.toggle() } }

    tracker.assert {
      #expect($pair.first != $pair.first)
      #expect($pair.first == $pair.second)
      $pair.first.withLock { $0.toggle() }
      #expect($pair.first == $pair.first)
      #expect($pair == $pair)
    }
    #expect(pair == Pair(first: true, second: false))
  }

  @Test func anExpectedWriteTellsNoObserver() {
    @Shared(value: 0) var count
    let tracker = SharedChangeTracker(reportUnassertedChanges: false)
    tracker.track { $count.withLock { $0 = 5 } }
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = count
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    tracker.assert { $count.withLock { $0 = 6 } }
    #expect(changes.value == 0)
    #expect(count == 5)
  }

  @Test func anUnassertedChangeIsReported() {
    @Shared(value: 0) var count
    withKnownIssue {
      do {
        let tracker = SharedChangeTracker()
        tracker.track { $count.withLock { $0 += 1 } }
      }
    } matching: {
      $0.description.contains("no assertion compared it") && $0.description.hasSuffix("0 → 1")
    }
  }

  @Test func anAssertedChangeIsNotReported() {
    @Shared(value: 0) var count
    do {
      let tracker = SharedChangeTracker()
      tracker.track { $count.withLock { $0 += 1 } }
      tracker.assert {
        $count.withLock { $0 = 1 }
        #expect($count == $count)
      }
    }
  }

  @Test func trackersAreKeptInASetByIdentity() {
    let first = SharedChangeTracker(reportUnassertedChanges: false)
    let second = SharedChangeTracker(reportUnassertedChanges: false)
    #expect(Set([first, second, first]).count == 2)
  }

  @Test func resetForgetsTheChanges() {
    @Shared(value: 0) var count
    let tracker = SharedChangeTracker()
    tracker.track { $count.withLock { $0 += 1 } }
    tracker.reset()
    #expect(!tracker.hasChanges)
    tracker.assert { #expect($count == $count) }
  }
}
