import ConcurrencyExtras
import Foundation

/// What a holder reads: a box, a part of one, or a value computed from one.
protocol SharedReadable<Value>: AnyObject, Sendable {
  associatedtype Value: Sendable
  var value: Value { get }
  var untrackedValue: Value { get }
  var isLoading: Bool { get }
  var loadError: (any Error)? { get }
  func load() async throws
  /// The box and the path into it.
  var identity: SharedIdentity { get }
  /// What `Shared.description` shows between its parentheses.
  var description: String { get }
  /// Calls `body` after each change of the value behind this holder, until the watch is
  /// released.
  func watch(_ body: @escaping @Sendable () -> Void) -> SharedWatch
}

/// What a `Shared` holder reads and writes: a box, or a part of one.
protocol SharedReference<Value>: SharedReadable {
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R
  var saveError: (any Error)? { get }
  func save() async throws
}

struct SharedIdentity: Hashable {
  let box: ObjectIdentifier
  let path: [AnyHashable]
}

extension SharedBox: SharedReference {
  var untrackedValue: Value {
    anyValue as! Value
  }

  var identity: SharedIdentity {
    SharedIdentity(box: ObjectIdentifier(self), path: [])
  }

  func load() async throws {
    try await reload()
  }

  func save() async throws {
    try await saveNow()
  }
}

/// A part of another shared value, read and written through it.
final class DerivedReference<Root: Sendable, Value: Sendable>: SharedReference {
  let base: any SharedReference<Root>
  let keyPath: UncheckedSendable<WritableKeyPath<Root, Value>>

  init(base: any SharedReference<Root>, keyPath: UncheckedSendable<WritableKeyPath<Root, Value>>) {
    self.base = base
    self.keyPath = keyPath
  }

  var value: Value { base.value[keyPath: keyPath.value] }
  var untrackedValue: Value { base.untrackedValue[keyPath: keyPath.value] }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try base.withLock { try body(&$0[keyPath: keyPath.value]) }
  }

  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }
  var saveError: (any Error)? { base.saveError }
  func load() async throws { try await base.load() }
  func save() async throws { try await base.save() }

  var identity: SharedIdentity {
    let root = base.identity
    return SharedIdentity(box: root.box, path: root.path + [keyPath.value as AnyKeyPath])
  }

  var description: String { "\(base.description)[dynamicMember: \(keyPath.value)]" }

  func watch(_ body: @escaping @Sendable () -> Void) -> SharedWatch { base.watch(body) }
}

/// The value inside a shared optional while it has one; its last value once it becomes `nil`.
protocol Unwrapping: SharedReadable {
  var wrapped: any SharedReadable<Value?> { get }
  /// The last value the optional held.
  var lastValue: Locked<Value> { get }
}

extension Unwrapping {
  var value: Value { lastValue.keepingLast(wrapped.value) }
  var untrackedValue: Value { lastValue.keepingLast(wrapped.untrackedValue) }
  var isLoading: Bool { wrapped.isLoading }
  var loadError: (any Error)? { wrapped.loadError }
  func load() async throws { try await wrapped.load() }
  var identity: SharedIdentity { wrapped.identity }
  var description: String { "\(wrapped.description)!" }
  func watch(_ body: @escaping @Sendable () -> Void) -> SharedWatch { wrapped.watch(body) }
}

/// A shared optional's value, written through to it while it has one.
final class UnwrappedReference<Value: Sendable>: SharedReference, Unwrapping {
  let base: any SharedReference<Value?>
  let lastValue: Locked<Value>

  init(base: any SharedReference<Value?>, lastValue: Value) {
    self.base = base
    self.lastValue = Locked(lastValue)
  }

  var wrapped: any SharedReadable<Value?> { base }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try base.withLock { optional in
      // Gone from the base: the change stays with this holder.
      guard var value = optional else { return try lastValue.withLock { try body(&$0) } }
      defer {
        optional = value
        lastValue.withLock { $0 = value }
      }
      return try body(&value)
    }
  }

  var saveError: (any Error)? { base.saveError }
  func save() async throws { try await base.save() }
}

/// A shared optional's value, read only.
final class UnwrappedReader<Value: Sendable>: Unwrapping {
  let wrapped: any SharedReadable<Value?>
  let lastValue: Locked<Value>

  init(base: any SharedReadable<Value?>, lastValue: Value) {
    wrapped = base
    self.lastValue = Locked(lastValue)
  }
}

/// A value computed from another shared value each time it is read.
final class MappedReference<Base: Sendable, Value: Sendable>: SharedReadable {
  let base: any SharedReadable<Base>
  let transform: @Sendable (Base) -> Value

  init(base: any SharedReadable<Base>, transform: @escaping @Sendable (Base) -> Value) {
    self.base = base
    self.transform = transform
  }

  var value: Value { transform(base.value) }
  var untrackedValue: Value { transform(base.untrackedValue) }
  var isLoading: Bool { base.isLoading }
  var loadError: (any Error)? { base.loadError }
  func load() async throws { try await base.load() }

  /// Every computed value is its own: two closures are never known to be the same.
  var identity: SharedIdentity {
    let root = base.identity
    return SharedIdentity(box: root.box, path: root.path + [ObjectIdentifier(self)])
  }

  var description: String { "\(base.description).read" }

  func watch(_ body: @escaping @Sendable () -> Void) -> SharedWatch { base.watch(body) }
}

extension Locked {
  /// `value` when there is one, remembered; else the last one remembered.
  func keepingLast(_ value: Value?) -> Value {
    withLock { last in
      if let value { last = value }
      return last
    }
  }
}
