/// What a test store learns of shared values while a step runs: each one that changed, with its
/// value before the step.
package final class SharedChangeTracker: Sendable {
  package struct Change: @unchecked Sendable {
    // Unchecked: the old value is a `Sendable` value seen as `Any`.
    package let box: any AnySharedBox
    package let before: Any
  }

  private let changes = Locked<[ObjectIdentifier: Change]>([:])
  /// Set while a test's assertion closure runs: what it writes is the expected value, compared
  /// and put back, never saved through the key.
  package let isAsserting = Locked(false)

  package init() {}

  func willChange(_ box: some AnySharedBox) {
    let before = box.anyValue
    changes.withLock { changes in
      let id = ObjectIdentifier(box)
      if changes[id] == nil { changes[id] = Change(box: box, before: before) }
    }
  }

  /// The changes since the last call, and forgets them.
  package func take() -> [Change] {
    changes.withLock { changes in
      defer { changes = [:] }
      return Array(changes.values)
    }
  }
}

extension SharedReferences {
  /// Starts telling `tracker` of every change to these shared values.
  package func track(with tracker: SharedChangeTracker?) {
    self.tracker.withLock { $0 = tracker }
  }
}
