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
  /// The value as a holder of the whole of it describes itself: `Shared<Int>(value: 1)`.
  var holderDescription: String { get }
  /// Writes the value if it changed here since it was last written: what a save interval's end
  /// and ``SharedReferences/flush()`` do.
  func saveIfChanged()
  /// Stops calling the watcher `id` names (``SharedWatch``).
  func unwatch(_ id: ObjectIdentifier)
}

/// Keeps a box calling a watcher after each change of its value, until released.
package final class SharedWatch: Sendable {
  private weak let box: (any AnySharedBox)?

  init(box: any AnySharedBox) {
    self.box = box
  }

  deinit {
    box?.unwatch(ObjectIdentifier(self))
  }
}

/// The one value behind every holder of a key: locked, observed, loaded and persisted through
/// the key's continuations.
final class SharedBox<Value: Sendable>: AnySharedBox, Observable, @unchecked Sendable {
  // Unchecked: `state` is behind its lock; the rest is immutable or thread-safe.
  private struct State {
    var value: Value
    var isLoading = false
    var loadError: (any Error)?
    var saveError: (any Error)?
    /// Changed here since the last write. A value received from outside is not ours to write
    /// back: writing it late would put another writer's older value over their newer one.
    var unsaved = false
    /// Received from outside and not changed here since: the storage holds it or something
    /// newer, so not even an explicit `save()` writes it.
    var fromOutside = false
    /// Counts the times the value was replaced, here or from outside: a failed write marks its
    /// value unsaved again only if it is still the value.
    var replacements: UInt64 = 0
  }

  /// A change that reads its own holder (`$count.withLock { $0 = count + 1 }` instead of
  /// `$0 += 1`) stops at Swift's exclusivity check, with a message (`Locked` is recursive).
  private let state: Locked<State>
  /// Held while a write is handed to the key, so this box's writes reach the key in the order
  /// of its changes: a late timer's write never puts an older value over a newer one.
  private let saving = Locked<Int>(0)
  private let registrar = ObservationRegistrar()
  /// Called after each change of the value (``SharedReadable/watch(_:)``). Apart from `state`,
  /// which every read and write copies in and out.
  private let watchers = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])
  /// `\SharedBox.value`, made once: a key path into a generic class is built at run time, with
  /// allocations, each time its literal is evaluated.
  private let valueKeyPath: KeyPath<SharedBox, Value>
  private let load: (@Sendable (LoadContext<Value>, LoadContinuation<Value>) -> Void)?
  private let save: (@Sendable (Value, SaveContext, SaveContinuation) -> Void)?
  private let saveInterval: Duration?
  private let equal: (@Sendable (Any, Any) -> Bool)?
  /// The key as `String(reflecting:)` names it, or `nil` for a value no key stores.
  private let key: String?
  /// The key as `String(describing:)` names it, in reports of its continuations.
  private let name: String
  private weak var references: SharedReferences?
  private var subscription: SharedSubscription?

  /// A value no key stores: `Shared(value:)`.
  init(value: Value, references: SharedReferences?) {
    state = Locked(State(value: value))
    load = nil
    save = nil
    saveInterval = nil
    equal = Self.equality()
    key = nil
    name = ""
    self.references = references
    valueKeyPath = \SharedBox.value
  }

  /// The value of `key`: loaded now unless `skipInitialLoad` (the caller loaded it), and
  /// followed through the key's subscription.
  init<Key: SharedReaderKey<Value>>(
    key: Key,
    initialValue: Value,
    skipInitialLoad: Bool,
    references: SharedReferences
  ) {
    state = Locked(State(value: initialValue, isLoading: !skipInitialLoad))
    load = { key.load(context: $0, continuation: $1) }
    if let key = key as? any SharedKey<Value> {
      save = { key.save($0, context: $1, continuation: $2) }
      saveInterval = key.saveInterval
    } else {
      save = nil
      saveInterval = nil
    }
    equal = Self.equality()
    self.key = String(reflecting: key)
    let name = String(describing: key)
    self.name = name
    self.references = references
    valueKeyPath = \SharedBox.value

    if !skipInitialLoad {
      key.load(
        context: .initialValue(initialValue),
        continuation: LoadContinuation(name) { [weak self] result in
          self?.receive(result, initialValue: initialValue, fromOutside: false)
        })
    }
    subscription = key.subscribe(
      context: skipInitialLoad ? .userInitiated : .initialValue(initialValue),
      subscriber: SharedSubscriber(
        deliver: { [weak self] result, mark in
          guard let self else { return }
          if let mark, self.hasUnsavedChange(since: mark) { return }
          self.receive(result, initialValue: initialValue, fromOutside: true)
        },
        onLoading: { [weak self] isLoading in
          self?.state.withLock { $0.isLoading = isLoading }
        },
        mark: { [weak self] in self?.state.withLock { $0.replacements } ?? 0 }))
  }

  /// The current value, reported to the observation tracking in progress.
  var value: Value {
    registrar.access(self, keyPath: valueKeyPath)
    return state.withLock { $0.value }
  }

  var anyValue: Any {
    state.withLock { $0.value }
  }

  var keyDescription: String {
    key ?? "Shared<\(Value.self)>"
  }

  var holderDescription: String {
    "Shared<\(Value.self)>(\(description))"
  }

  /// What `Shared.description` shows between its parentheses.
  var description: String {
    key ?? "value: \(String(reflecting: state.withLock { $0.value }))"
  }

  var isLoading: Bool {
    state.withLock { $0.isLoading }
  }

  var loadError: (any Error)? {
    state.withLock { $0.loadError }
  }

  var saveError: (any Error)? {
    state.withLock { $0.saveError }
  }

  /// Changes the value under the lock, then tells observers, the test store watching, and the
  /// key.
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    let tracker = references?.tracker.withLock { $0 }
    tracker?.willChange(self)
    if let current = SharedChangeTracker.current {
      // Inside a tracker's `assert`, a change sets the expected value.
      if let asserting = current.expectationsOf {
        return try asserting.changeExpectedValue(of: self, body)
      }
      current.willChange(self)
    }
    if let tracker, tracker.isAsserting.withLock({ $0 }) {
      return try state.withLock { try body(&$0.value) }
    }
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
    tellWatchers()
    return result
  }

  /// Calls `body` after each change of the value, here or from outside, until the returned
  /// watch is released.
  func watch(_ body: @escaping @Sendable () -> Void) -> SharedWatch {
    let watch = SharedWatch(box: self)
    watchers.withLock { $0[ObjectIdentifier(watch)] = body }
    return watch
  }

  func unwatch(_ id: ObjectIdentifier) {
    watchers.withLock { $0[id] = nil }
  }

  /// Called after the value's lock is let go, so that a watcher can read the value, or change it.
  private func tellWatchers() {
    guard let watchers = watchers.withLock({ $0.isEmpty ? nil : Array($0.values) }) else { return }
    for watcher in watchers { watcher() }
  }

  private func didChange() {
    guard save != nil else { return }
    if let saveInterval, let references {
      references.scheduleSave(self, after: saveInterval)
    } else {
      saveIfChanged()
    }
  }

  func saveIfChanged() {
    guard let save else { return }
    let name = self.name
    saving.withLock { _ in
      let changed = state.withLock { state -> (Value, UInt64)? in
        guard state.unsaved else { return nil }
        state.unsaved = false
        return (state.value, state.replacements)
      }
      guard let (value, replacements) = changed else { return }
      save(
        value, .didSet,
        SaveContinuation(name) { [weak self] result in
          self?.saved(result.map { _ in () }, replacements: replacements)
        })
    }
  }

  /// Writes the value now, changed or not, unless it is one received from outside (its storage
  /// already holds it, or a newer one); throws why the key could not store it.
  func saveNow() async throws {
    guard let save else { return }
    state.withLock { $0.saveError = nil }
    let name = self.name
    let result = await withCheckedContinuation {
      (waiter: CheckedContinuation<Result<Void, any Error>, Never>) in
      saving.withLock { _ in
        let current = state.withLock { state -> (Value, UInt64)? in
          guard !state.fromOutside else { return nil }
          state.unsaved = false
          return (state.value, state.replacements)
        }
        guard let (value, replacements) = current else {
          return waiter.resume(returning: .success(()))
        }
        save(
          value, .userInitiated,
          SaveContinuation(name) { [weak self] result in
            let result = result.map { _ in () }
            self?.saved(result, replacements: replacements)
            waiter.resume(returning: result)
          })
      }
    }
    try result.get()
  }

  private func saved(_ result: Result<Void, any Error>, replacements: UInt64) {
    state.withLock { state in
      switch result {
      case .success:
        state.saveError = nil
        state.loadError = nil
      case .failure(let error):
        state.saveError = error
        // Still to be written, by the next change or `flush()`, unless it was replaced meanwhile.
        if state.replacements == replacements { state.unsaved = true }
      }
    }
    if case .failure(let error) = result, !isTesting {
      reportIssue("Could not save \(keyDescription): \(error)")
    }
  }

  /// Loads the stored value again, replacing the holders' value with it; throws why it could
  /// not be loaded.
  func reload() async throws {
    guard let load else { return }
    state.withLock { $0.isLoading = true }
    let name = self.name
    let result = await withCheckedContinuation {
      (waiter: CheckedContinuation<Result<Value?, any Error>, Never>) in
      load(.userInitiated, LoadContinuation(name) { waiter.resume(returning: $0) })
    }
    // "Nothing stored" keeps the value the holders have: they asked to reload, not to reset.
    if case .success(let value?) = result { replace(with: value, fromOutside: true) }
    try finishLoading(result).get()
  }

  /// A loaded value, or one stored from outside: shown to every holder, not saved back. It
  /// replaces a change made here and not yet written: the last writer wins.
  /// Whether the value was changed here after `mark` and that change is not written yet: a value
  /// read from outside before the change must not replace it.
  private func hasUnsavedChange(since mark: UInt64) -> Bool {
    state.withLock { $0.unsaved && $0.replacements != mark }
  }

  private func receive(_ result: Result<Value?, any Error>, initialValue: Value, fromOutside: Bool)
  {
    if case .success(let value) = result {
      replace(with: value ?? initialValue, fromOutside: fromOutside)
    }
    _ = finishLoading(result)
  }

  /// Ends a load: not loading any more, and its error kept (outside tests, reported) or cleared.
  private func finishLoading(_ result: Result<Value?, any Error>) -> Result<Void, any Error> {
    let error: (any Error)? = if case .failure(let error) = result { error } else { nil }
    state.withLock {
      $0.isLoading = false
      $0.loadError = error
    }
    guard let error else { return .success(()) }
    if !isTesting { reportIssue("Could not load \(keyDescription): \(error)") }
    return .failure(error)
  }

  private func replace(with value: Value, fromOutside: Bool) {
    registrar.withMutation(of: self, keyPath: valueKeyPath) {
      state.withLock {
        $0.value = value
        $0.unsaved = false
        $0.fromOutside = fromOutside
        $0.replacements &+= 1
      }
    }
    tellWatchers()
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
