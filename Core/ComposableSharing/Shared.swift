import CustomDump
import Dependencies
import Observation

/// A value several features hold at once, optionally persisted: `@Shared(.inMemory("events"))
/// var events: [String] = []`. Every holder sees a change at once; change it with
/// `$events.withLock { $0.append("…") }`.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
  private let reference: any SharedReference<Value>

  private init(reference: any SharedReference<Value>) {
    self.reference = reference
  }

  /// The value stored at `key`, or `wrappedValue` while nothing is stored there.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    @Dependency(\.sharedReferences) var references
    self.init(reference: references.box(for: key, initialValue: wrappedValue()))
  }

  /// A shared value that no key stores, held by whoever this is handed to.
  public init(value: Value) {
    @Dependency(\.sharedReferences) var references
    self.init(reference: SharedBox(value: value, references: references))
  }

  /// The same shared value: `_events = Shared(projectedValue: otherHolder.$events)`.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The current value. Reading it inside observation tracking observes it.
  public var wrappedValue: Value {
    reference.value
  }

  /// The shared value itself, for `withLock` and for handing it to another feature.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Changes the value, holding its lock so no other change interleaves.
  @discardableResult
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try reference.withLock(body)
  }

  /// A part of the value, shared with it: `$user.name` is a `Shared<String>` into `$user`.
  public subscript<Member: Sendable>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> Shared<Member> {
    // A key path literal is immutable; one that captures no values is sendable.
    Shared<Member>(
      reference: DerivedReference(base: reference, keyPath: UncheckedSendable(keyPath)))
  }

  /// Why the stored value could not be read, if it could not: the holder goes on with its
  /// initial value.
  public var loadError: (any Error)? {
    reference.loadError
  }

  /// Why the last change could not be stored, if it could not.
  public var saveError: (any Error)? {
    reference.saveError
  }

  /// Writes the value now, instead of when its key's save interval ends. A value picked up from
  /// another process is not written back: its storage already holds it, or a newer one.
  public func save() {
    reference.saveNow()
  }

  /// Whether two holders hold the very same shared value (not only equal ones).
  public func isSameReference(as other: Shared<Value>) -> Bool {
    reference.identity == other.reference.identity
  }
}

extension Shared: Equatable where Value: Equatable {
  /// Equal when their values are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.wrappedValue == rhs.wrappedValue
  }
}

extension Shared: Hashable where Value: Hashable {
  /// Hashes the value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension Shared: CustomDumpRepresentable {
  /// Dumps as the value, so a test's diff shows what changed.
  public var customDumpValue: Any {
    reference.untrackedValue
  }
}

extension Shared: CustomStringConvertible {
  /// The value's description.
  public var description: String {
    String(describing: wrappedValue)
  }
}

/// A shared value read, never written, by this holder: `@SharedReader(.appStorage("soundsOn"))
/// var soundsOn = true`.
@propertyWrapper
@dynamicMemberLookup
public struct SharedReader<Value: Sendable>: Sendable {
  private let reference: any SharedReference<Value>

  fileprivate init(reference: any SharedReference<Value>) {
    self.reference = reference
  }

  /// The value stored at `key`, or `wrappedValue` while nothing is stored there.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) {
    @Dependency(\.sharedReferences) var references
    self.init(reference: references.box(for: key, initialValue: wrappedValue()))
  }

  /// Reads what `shared` holds.
  public init(_ shared: Shared<Value>) {
    self = shared.reader
  }

  /// A value that never changes.
  public static func constant(_ value: Value) -> Self {
    Self(reference: SharedBox(value: value, references: nil))
  }

  /// The current value. Reading it inside observation tracking observes it.
  public var wrappedValue: Value {
    reference.value
  }

  /// The reader itself.
  public var projectedValue: SharedReader<Value> {
    self
  }

  /// A part of the value: `$user.name`.
  public subscript<Member: Sendable>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> SharedReader<Member> {
    SharedReader<Member>(
      reference: DerivedReference(base: reference, keyPath: UncheckedSendable(keyPath))
    )
  }

  /// Why the stored value could not be read, if it could not.
  public var loadError: (any Error)? {
    reference.loadError
  }
}

extension Shared {
  /// A read-only view of the same value.
  public var reader: SharedReader<Value> {
    SharedReader(reference: reference)
  }
}

extension SharedReader: Equatable where Value: Equatable {
  /// Equal when their values are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.wrappedValue == rhs.wrappedValue
  }
}

extension SharedReader: CustomDumpRepresentable {
  /// Dumps as the value.
  public var customDumpValue: Any {
    reference.untrackedValue
  }
}

/// A box, or a part of one.
protocol SharedReference<Value>: AnyObject, Sendable {
  associatedtype Value: Sendable
  var value: Value { get }
  var untrackedValue: Value { get }
  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R
  var loadError: (any Error)? { get }
  var saveError: (any Error)? { get }
  func saveNow()
  /// The box and the path into it.
  var identity: SharedIdentity { get }
}

struct SharedIdentity: Hashable {
  let box: ObjectIdentifier
  let path: [AnyKeyPath]
}

extension SharedBox: SharedReference {
  var untrackedValue: Value {
    anyValue as! Value
  }

  var identity: SharedIdentity {
    SharedIdentity(box: ObjectIdentifier(self), path: [])
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

  var loadError: (any Error)? { base.loadError }
  var saveError: (any Error)? { base.saveError }
  func saveNow() { base.saveNow() }

  var identity: SharedIdentity {
    let root = base.identity
    return SharedIdentity(box: root.box, path: root.path + [keyPath.value])
  }
}
