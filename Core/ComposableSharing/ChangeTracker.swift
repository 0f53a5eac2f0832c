import IssueReporting

/// Learns which shared values changed while it tracked, and what each was before: a test store,
/// `_printChanges`, or a harness of your own that asserts the changes (swift-sharing's SPI).
///
/// `track` records the value each shared value had before its first change. Inside `assert`, the
/// left side of `==` and of a test diff is that earlier value, and `withLock` writes it (the
/// expected value) instead of the live one, which stays as the tracked code left it. A change
/// never compared with itself inside `assert` is reported when the tracker is released.
@_spi(SharedChangeTracking)
public final class SharedChangeTracker: Sendable {
  /// The tracker a reducer's step runs under (`_printChanges`), told of every change besides the
  /// test store's: a shared value is a reference, so a copy of the state taken before the step
  /// shows its value after, and only this tells what it was.
  @TaskLocal package static var current: SharedChangeTracker?

  /// The tracker whose earlier values a diff or `==` shows on its left side: set while a step's
  /// change is described, or while `assert` runs.
  @TaskLocal package static var described: SharedChangeTracker?

  package struct Change: @unchecked Sendable {
    // Unchecked: the old value is a `Sendable` value seen as `Any`.
    package let box: any AnySharedBox
    package let before: Any
  }

  private struct Changes {
    var byBox: [ObjectIdentifier: Change] = [:]
    /// Boxes `==` compared with themselves inside `assert`.
    var asserted: Set<ObjectIdentifier> = []
  }

  private let changes = Locked(Changes())
  /// A tracker nested in another (`_printChanges` applied twice) tells it too, so that the outer
  /// one sees what the inner step changed.
  private let parent: SharedChangeTracker?
  /// Set on the stand-in `assert` makes current: a write changes this tracker's expected value
  /// instead of the live one.
  let expectationsOf: SharedChangeTracker?
  private let reportsUnassertedChanges: Bool
  /// Where the tracker was made, for its report.
  private let location: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)?
  /// Set while a test store's assertion closure runs: what it writes is the expected value,
  /// compared and put back, never saved through the key.
  package let isAsserting = Locked(false)

  package init(parent: SharedChangeTracker?) {
    self.parent = parent
    self.expectationsOf = nil
    self.reportsUnassertedChanges = false
    self.location = nil
  }

  private init(expectationsOf tracker: SharedChangeTracker) {
    self.parent = nil
    self.expectationsOf = tracker
    self.reportsUnassertedChanges = false
    self.location = nil
  }

  /// A tracker that, by default while testing, reports the changes it saw and no `assert`
  /// compared, when it is released.
  public init(
    reportUnassertedChanges: Bool = isTesting,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.parent = nil
    self.expectationsOf = nil
    self.reportsUnassertedChanges = reportUnassertedChanges
    self.location = (fileID, filePath, line, column)
  }

  deinit {
    guard reportsUnassertedChanges, let location else { return }
    let unasserted = changes.withLock { changes in
      changes.byBox.filter { !changes.asserted.contains($0.key) }.values
    }
    for change in unasserted {
      reportIssue(
        """
        A shared value changed while tracked, and no assertion compared it: \
        \(change.box.holderDescription), \(String(reflecting: change.before)) → \
        \(String(reflecting: change.box.anyValue))
        """,
        fileID: location.fileID, filePath: location.filePath, line: location.line,
        column: location.column
      )
    }
  }

  /// Whether a shared value has changed since the tracker was made or last reset.
  public var hasChanges: Bool {
    changes.withLock { !$0.byBox.isEmpty }
  }

  /// Runs `body`, recording the value each shared value it changes had before.
  public func track<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$current.withValue(self, operation: body)
  }

  /// Runs `body` with the recorded values as the expected ones: `$count == $count` compares the
  /// expected value with the live one, and `$count.withLock { $0 = 1 }` sets the expected value.
  public func assert<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$current.withValue(SharedChangeTracker(expectationsOf: self)) {
      try Self.$described.withValue(self, operation: body)
    }
  }

  /// Forgets every recorded change.
  public func reset() {
    changes.withLock { $0 = Changes() }
  }

  /// Runs `body` on the expected value of `box` (its recorded earlier value, or else its live
  /// one), instead of on the live one.
  func changeExpectedValue<Value, R>(
    of box: SharedBox<Value>, _ body: (inout Value) throws -> R
  ) rethrows -> R {
    var expected = before(box: ObjectIdentifier(box)) as? Value ?? box.untrackedValue
    let result = try body(&expected)
    record(Change(box: box, before: expected), replacing: true)
    return result
  }

  /// Records the value of `box` before a change.
  func willChange(_ box: some AnySharedBox) {
    record(Change(box: box, before: box.anyValue))
  }

  /// Keeps the earliest value of each box, here and in the trackers around this one, unless
  /// `replacing` (an expected value written inside `assert`).
  private func record(_ change: Change, replacing: Bool = false) {
    changes.withLock { changes in
      let id = ObjectIdentifier(change.box)
      if replacing || changes.byBox[id] == nil { changes.byBox[id] = change }
    }
    parent?.record(change)
  }

  /// The recorded value of a box before its change.
  func before(box: ObjectIdentifier) -> Any? {
    changes.withLock { $0.byBox[box]?.before }
  }

  /// Notes that `==` compared a box with itself inside `assert`.
  func noteAsserted(box: ObjectIdentifier) {
    changes.withLock { _ = $0.asserted.insert(box) }
  }

  /// The changes since the last call, and forgets them.
  package func take() -> [Change] {
    changes.withLock { changes in
      defer { changes = Changes() }
      return Array(changes.byBox.values)
    }
  }
}

extension SharedChangeTracker: Hashable {
  /// Whether both are the one tracker, as copies of one of swift-sharing's trackers are.
  public static func == (lhs: SharedChangeTracker, rhs: SharedChangeTracker) -> Bool {
    lhs === rhs
  }

  /// Hashes the tracker's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
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
  /// box's earlier value, followed along the holder's path into it. Compared with `other`, the
  /// same holder, inside `assert`, the change counts as asserted.
  func valueBeforeDescribedStep(comparedWith other: (any SharedReadable)? = nil) -> Value? {
    guard let tracker = SharedChangeTracker.described else { return nil }
    let identity = identity
    guard var value = tracker.before(box: identity.box) else { return nil }
    if let other, other.identity == identity { tracker.noteAsserted(box: identity.box) }
    for component in identity.path {
      guard let keyPath = component.base as? AnyKeyPath, let next = value[keyPath: keyPath] else {
        return nil
      }
      value = next
    }
    return value as? Value
  }
}
