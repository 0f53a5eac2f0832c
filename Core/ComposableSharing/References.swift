import ConcurrencyExtras
import Dependencies
import Foundation

/// The shared values of one app (or of one test): the value of each persisted key while someone
/// holds it, and what a test store watches. One per `DependencyValues`, so tests never share.
public final class SharedReferences: Sendable {
  private let boxes = Locked<[BoxID: WeakBox]>([:])
  private let pendingSaves = Locked<[ObjectIdentifier: any AnySharedBox]>([:])
  /// Where writes run at the end of their save interval: a queue of its own, not a global one.
  /// A write may wait (a file's lock held by another process), and on Linux the global queues'
  /// threads are the ones Swift's concurrency runs on, one per core.
  private let saves = DispatchQueue(label: "composable.shared-saves")
  /// Set while a test store runs, to learn which shared values each step changed.
  package let tracker = Locked<SharedChangeTracker?>(nil)

  /// An empty set of references.
  public init() {}

  /// The box of `key`, made (and loaded, unless `skipInitialLoad`) when nobody holds it.
  func box<Key: SharedReaderKey>(
    for key: Key,
    initialValue: @autoclosure () -> Key.Value,
    skipInitialLoad: Bool = false
  ) -> SharedBox<Key.Value> {
    let id = BoxID(type: ObjectIdentifier(Key.self), id: AnyHashable(key.id))
    if let box = boxes.withLock({ $0[id]?.box }) as? SharedBox<Key.Value> { return box }
    // Made outside the lock: the initial value, the load and the subscription may themselves
    // reach other shared values (a default read from another one, say).
    let made = SharedBox(
      key: key, initialValue: initialValue(), skipInitialLoad: skipInitialLoad, references: self)
    return boxes.withLock { boxes in
      // Another holder may have made it meanwhile: theirs is the one.
      if let box = boxes[id]?.box as? SharedBox<Key.Value> { return box }
      boxes[id] = WeakBox(box: made)
      return made
    }
  }

  /// Whether any keyed shared value is held: a recorder then prints each state at once, since a
  /// copy of the state would later show the shared values as they are then.
  package var holdsValues: Bool {
    boxes.withLock { boxes in boxes.values.contains { $0.box != nil } }
  }

  /// Writes every change not written yet, whether it waits for its save interval or its write
  /// failed: call before the process exits.
  public func flush() {
    // A value nobody holds any more is alive only through its pending save, and still in
    // `boxes`: `pending` keeps it there while the live boxes are listed, each once.
    let pending = pendingSaves.withLock { pending in
      defer { pending = [:] }
      return pending
    }
    let live = withExtendedLifetime(pending) {
      boxes.withLock { boxes in boxes.values.compactMap { $0.box as? any AnySharedBox } }
    }
    for box in live { box.saveIfChanged() }
  }

  func scheduleSave(_ box: some AnySharedBox, after interval: Duration) {
    let isNew = pendingSaves.withLock { pending in
      pending.updateValue(box, forKey: ObjectIdentifier(box)) == nil
    }
    guard isNew else { return }
    // The references are kept until the write: released first, they took their pending writes
    // with them, and a change made just before a test or a window closed was never written.
    saves.asyncAfter(deadline: .now() + DispatchTimeInterval(interval)) {
      [self, weak box] in
      guard let box else { return }
      let stillPending = self.pendingSaves.withLock {
        $0.removeValue(forKey: ObjectIdentifier(box)) != nil
      }
      if stillPending { box.saveIfChanged() }
    }
  }

  private struct BoxID: Hashable, @unchecked Sendable {
    // Unchecked: the id is a key's `ID`, which is `Sendable`, seen as `AnyHashable`.
    let type: ObjectIdentifier
    let id: AnyHashable
  }

  private struct WeakBox: @unchecked Sendable {
    // Unchecked: read and written only under the lock.
    weak var box: AnyObject?
  }
}

extension SharedReferences: DependencyKey {
  /// The app's shared values.
  public static var liveValue: SharedReferences { SharedReferences() }
  /// A test's own shared values.
  public static var testValue: SharedReferences { SharedReferences() }
}

extension DependencyValues {
  /// Where `@Shared` finds the value of a key: one set per app, a new one per test.
  public var sharedReferences: SharedReferences {
    get { self[SharedReferences.self] }
    set { self[SharedReferences.self] = newValue }
  }
}

extension DispatchTimeInterval {
  /// The same span, to the nanosecond, for dispatch's timers.
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
  }
}
