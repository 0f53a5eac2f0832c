/// What a test store, or `_printChanges`, learns of shared values while a step runs: each one
/// that changed, with its value before the step.
package final class SharedChangeTracker: Sendable {
  /// The tracker a reducer's step runs under (`_printChanges`), told of every change besides the
  /// test store's: a shared value is a reference, so a copy of the state taken before the step
  /// shows its value after, and only this tells what it was.
  @TaskLocal package static var current: SharedChangeTracker?

  /// Shared values as they were before a step, by box, while its change is described: a diff of
  /// the state before and after shows them on its left side.
  @TaskLocal package static var valuesBefore = ValuesBefore()

  package struct ValuesBefore: @unchecked Sendable {
    // Unchecked: each value is a `Sendable` value seen as `Any`.
    var values: [ObjectIdentifier: Any] = [:]
  }

  /// A tracker nested in another (`_printChanges` applied twice) tells it too, so that the outer
  /// one sees what the inner step changed.
  private let parent: SharedChangeTracker?

  package struct Change: @unchecked Sendable {
    // Unchecked: the old value is a `Sendable` value seen as `Any`.
    package let box: any AnySharedBox
    package let before: Any
  }

  private let changes = Locked<[ObjectIdentifier: Change]>([:])
  /// Set while a test's assertion closure runs: what it writes is the expected value, compared
  /// and put back, never saved through the key.
  package let isAsserting = Locked(false)

  package init(parent: SharedChangeTracker? = nil) {
    self.parent = parent
  }

  func willChange(_ box: some AnySharedBox) {
    record(Change(box: box, before: box.anyValue))
  }

  /// Keeps the earliest value of each box, here and in the trackers around this one.
  private func record(_ change: Change) {
    changes.withLock { changes in
      let id = ObjectIdentifier(change.box)
      if changes[id] == nil { changes[id] = change }
    }
    parent?.record(change)
  }

  /// Runs `body` with `changes` as the values before, for the diffs it makes.
  package static func describing<R>(_ changes: [Change], _ body: () -> R) -> R {
    var before = ValuesBefore()
    for change in changes { before.values[ObjectIdentifier(change.box)] = change.before }
    return $valuesBefore.withValue(before, operation: body)
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

extension SharedReadable {
  /// This holder's value before the step being described, when the step changed its box: the
  /// box's earlier value, followed along the holder's path into it.
  var valueBeforeDescribedStep: Value? {
    let before = SharedChangeTracker.valuesBefore.values
    guard !before.isEmpty else { return nil }
    let identity = identity
    guard var value = before[identity.box] else { return nil }
    for component in identity.path {
      guard let keyPath = component.base as? AnyKeyPath, let next = value[keyPath: keyPath] else {
        return nil
      }
      value = next
    }
    return value as? Value
  }
}
