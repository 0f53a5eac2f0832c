import ConcurrencyExtras
import Foundation
import IssueReporting
import Observation

/// What a test store needs of a shared value without knowing its type.
package protocol AnySharedBox: AnyObject, Sendable {
  /// The current value.
  var anyValue: Any { get }
  /// Sets the value without telling anyone: a test store putting back what a step did.
  func restore(_ value: Any)
  /// Whether two values are equal, when the value is `Equatable`.
  func isEqual(_ lhs: Any, _ rhs: Any) -> Bool?
  /// Names the value in a failure message.
  var keyDescription: String { get }
  /// Writes the value if it changed here since it was last written: what a save interval's end
  /// and ``SharedReferences/flush()`` do.
  func saveIfChanged()
}

/// The one value behind every holder of a key: locked, observed, persisted through the key.
final class SharedBox<Value: Sendable>: AnySharedBox, Observable, @unchecked Sendable {
  // Unchecked: `state` is behind its lock; the rest is immutable or thread-safe.
  private struct State {
    var value: Value
    var loadError: (any Error)?
    /// Changed here since the last write. A value received from outside is not ours to write
    /// back: writing it late would put another writer's older value over their newer one.
    var unsaved = false
    /// Received from outside and not changed here since: the file holds it or something newer,
    /// so not even an explicit `save()` writes it.
    var fromOutside = false
    /// Counts the times the value was replaced, here or from outside: a failed write marks its
    /// value unsaved again only if it is still the value.
    var replacements: UInt64 = 0
  }

  /// A change that reads its own holder (`$count.withLock { $0 = count + 1 }` instead of
  /// `$0 += 1`) stops at Swift's exclusivity check, with a message (`Locked` is recursive).
  private let state: Locked<State>
  /// Why the last write failed, if it did. Held from reading the value to be written until it is
  /// written, so this box's writes land in the order of its changes: a late timer's write never
  /// puts an older value over a newer one.
  private let saving = Locked<(any Error)?>(nil)
  private let registrar = ObservationRegistrar()
  /// `\SharedBox.value`, made once: a key path into a generic class is built at run time, with
  /// allocations, each time its literal is evaluated.
  private let valueKeyPath: KeyPath<SharedBox, Value>
  private let save: (@Sendable (Value) throws -> Void)?
  private let saveInterval: Duration?
  private let equal: (@Sendable (Any, Any) -> Bool)?
  let keyDescription: String
  private weak var references: SharedReferences?
  private var subscription: SharedSubscription?

  /// A value no key stores: `Shared(value:)`.
  init(value: Value, references: SharedReferences?) {
    state = Locked(State(value: value))
    save = nil
    saveInterval = nil
    equal = Self.equality()
    keyDescription = "Shared<\(Value.self)>"
    self.references = references
    valueKeyPath = \SharedBox.value
  }

  /// The value of `key`, loaded now.
  init<Key: SharedReaderKey<Value>>(
    key: Key,
    initialValue: Value,
    references: SharedReferences
  ) {
    var loaded = State(value: initialValue)
    do {
      loaded.value = try key.load(initialValue: initialValue)
    } catch {
      loaded.loadError = error
      reportIssue("Could not load \(key): \(error)")
    }
    state = Locked(loaded)
    if let key = key as? any SharedKey<Value> {
      save = { try key.save($0) }
      saveInterval = key.saveInterval
    } else {
      save = nil
      saveInterval = nil
    }
    equal = Self.equality()
    keyDescription = "\(key)"
    self.references = references
    valueKeyPath = \SharedBox.value
    subscription = key.subscribe { [weak self] value in self?.receiveExternal(value) }
  }

  /// The current value, reported to the observation tracking in progress.
  var value: Value {
    registrar.access(self, keyPath: valueKeyPath)
    return state.withLock { $0.value }
  }

  var anyValue: Any {
    state.withLock { $0.value }
  }

  var loadError: (any Error)? {
    state.withLock { $0.loadError }
  }

  var saveError: (any Error)? {
    saving.withLock { $0 }
  }

  /// Changes the value under the lock, then tells observers, the test store watching, and the
  /// key.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    references?.tracker.withLock { $0 }?.willChange(self)
    let result = try registrar.withMutation(of: self, keyPath: valueKeyPath) {
      try state.withLock { state in
        let result = try body(&state.value)
        state.unsaved = true
        state.fromOutside = false
        state.replacements &+= 1
        return result
      }
    }
    didChange()
    return result
  }

  private func didChange() {
    guard save != nil else { return }
    if let saveInterval, let references {
      references.scheduleSave(self, after: saveInterval)
    } else {
      saveIfChanged()
    }
  }

  /// Writes the value, changed or not, unless it is one received from outside: `Shared.save()`.
  func saveNow() {
    write(onlyIfChanged: false)
  }

  func saveIfChanged() {
    write(onlyIfChanged: true)
  }

  private func write(onlyIfChanged: Bool) {
    guard let save else { return }
    saving.withLock { saveError in
      let changed = state.withLock { state -> (Value, UInt64)? in
        guard onlyIfChanged ? state.unsaved : !state.fromOutside else { return nil }
        state.unsaved = false
        return (state.value, state.replacements)
      }
      guard let (value, replacements) = changed else { return }
      do {
        try save(value)
        saveError = nil
      } catch {
        saveError = error
        // Still to be written, by the next change or `flush()`, unless it was replaced meanwhile.
        state.withLock { state in
          if state.replacements == replacements { state.unsaved = true }
        }
        reportIssue("Could not save \(keyDescription): \(error)")
      }
    }
  }

  /// A value stored from outside: shown to every holder, not saved back. It replaces a change
  /// made here and not yet written: the last writer wins.
  private func receiveExternal(_ value: Value) {
    registrar.withMutation(of: self, keyPath: valueKeyPath) {
      state.withLock {
        $0.value = value
        $0.loadError = nil
        $0.unsaved = false
        $0.fromOutside = true
        $0.replacements &+= 1
      }
    }
  }

  func restore(_ value: Any) {
    guard let value = value as? Value else { return }
    state.withLock { $0.value = value }
  }

  func isEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
    equal?(lhs, rhs)
  }

  private static func equality() -> (@Sendable (Any, Any) -> Bool)? {
    guard Value.self is any Equatable.Type else { return nil }
    return { lhs, rhs in
      guard let lhs = lhs as? any Equatable else { return false }
      return equalValues(lhs, rhs)
    }
  }
}

private func equalValues<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
  (rhs as? T) == lhs
}
