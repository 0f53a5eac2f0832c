import CustomDump
import Dependencies
import IdentifiedCollections
import Observation

/// A shared value read, never written, by this holder: `@SharedReader(.appStorage("soundsOn"))
/// var soundsOn = true`.
@propertyWrapper
@dynamicMemberLookup
public struct SharedReader<Value: Sendable>: Sendable {
  private let holder: Locked<any SharedReadable<Value>>

  init(reference: any SharedReadable<Value>) {
    holder = Locked(reference)
  }

  var reference: any SharedReadable<Value> {
    holder.withLock { $0 }
  }

  /// Reads what `shared` holds.
  public init(_ shared: Shared<Value>) {
    self.init(reference: shared.reference)
  }

  /// The value inside `base` while it has one.
  public init?(_ base: Shared<Value?>) {
    guard let shared = Shared(base) else { return nil }
    self.init(shared)
  }

  /// The value inside `base` while it has one.
  public init?(_ base: SharedReader<Value?>) {
    guard let value = base.wrappedValue else { return nil }
    self.init(reference: UnwrappedReader(base: base.reference, lastValue: value))
  }

  /// A value that never changes.
  public init(value: Value) {
    self.init(reference: SharedBox(value: value, references: nil))
  }

  /// A value that never changes.
  public static func constant(_ value: Value) -> Self {
    Self(value: value)
  }

  /// The same shared value.
  public init(projectedValue: SharedReader<Value>) {
    self = projectedValue
  }

  /// The current value. Reading it inside observation tracking observes it.
  public var wrappedValue: Value {
    reference.value
  }

  /// The reader itself; setting it points this reader and its copies at another value.
  public var projectedValue: SharedReader<Value> {
    get { self }
    nonmutating set {
      let reference = newValue.reference
      holder.withLock { $0 = reference }
    }
  }

  /// A part of the value: `$user.name`.
  public subscript<Member: Sendable>(
    dynamicMember keyPath: KeyPath<Value, Member>
  ) -> SharedReader<Member> {
    let path = UncheckedSendable(keyPath)
    return read { $0[keyPath: path.value] }
  }

  /// A value computed from this one, kept up to date.
  public func read<Member: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Member
  ) -> SharedReader<Member> {
    SharedReader<Member>(reference: MappedReference(base: reference, transform: transform))
  }

  /// Whether the key is loading the value.
  public var isLoading: Bool {
    reference.isLoading
  }

  /// Loads the stored value again; throws why it could not be loaded.
  public func load() async throws {
    try await reference.load()
  }

  /// Points this reader at `key`'s value, keeping the current value until it is loaded, then
  /// loads it.
  public func load(_ key: some SharedReaderKey<Value>) async throws {
    @Dependency(\.sharedReferences) var references
    projectedValue = SharedReader(
      reference: references.box(for: key, initialValue: wrappedValue, skipInitialLoad: true))
    try await load()
  }

  /// Why the stored value could not be read, if it could not.
  public var loadError: (any Error)? {
    reference.loadError
  }
}

extension SharedReader {
  /// The value stored at `key`, or `wrappedValue` while nothing is stored there.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) {
    self.init(key: key, initialValue: wrappedValue(), skipInitialLoad: false)
  }

  /// The value stored at `key`, or `wrappedValue`: lets `.inMemory`, declared for writers too,
  /// resolve for a reader.
  @_disfavoredOverload
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(key: key, initialValue: wrappedValue(), skipInitialLoad: false)
  }

  /// The value stored at `key`, or `nil`.
  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedReaderKey<Value>) where Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }

  /// The value stored at `key`, or `nil`.
  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedKey<Value>) where Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }

  /// The value stored at `key`, or the key's default.
  public init<Key: SharedReaderKey<Value>>(_ key: _SharedKeyDefault<Key>) {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  /// The value stored at `key`, or the key's default.
  @_disfavoredOverload
  public init<Key: SharedKey<Value>>(_ key: _SharedKeyDefault<Key>) {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  /// The value stored at `key`, or `wrappedValue`, which wins over the key's default.
  public init<Key: SharedReaderKey<Value>>(
    wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// The value stored at `key`, or `wrappedValue`, which wins over the key's default.
  @_disfavoredOverload
  public init<Key: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// A key without a default needs a value at the holder.
  @available(*, unavailable, message: "Assign a default value")
  public init(_ key: some SharedReaderKey<Value>) {
    fatalError()
  }

  /// The value stored at `key`, loaded now; throws when it cannot be loaded or nothing is stored.
  public init(require key: some SharedReaderKey<Value>) async throws {
    guard let value = try await loadRequired(key) else { throw SharedLoadError(key) }
    self.init(key: key, initialValue: value, skipInitialLoad: true)
    if let error = loadError { throw error }
  }

  private init(
    key: some SharedReaderKey<Value>, initialValue: @autoclosure () -> Value,
    skipInitialLoad: Bool
  ) {
    @Dependency(\.sharedReferences) var references
    self.init(
      reference: references.box(
        for: key, initialValue: initialValue(), skipInitialLoad: skipInitialLoad))
  }
}

extension Shared {
  /// A read-only view of the same value.
  public var reader: SharedReader<Value> {
    SharedReader(self)
  }
}

extension SharedReader: Equatable where Value: Equatable {
  /// Equal when their values are: the left one's before the step while `_printChanges` describes
  /// one, or its expected value inside a change tracker's `assert`.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.reference.valueBeforeDescribedStep(comparedWith: rhs.reference) ?? lhs.wrappedValue)
      == rhs.wrappedValue
  }
}

extension SharedReader: Identifiable where Value: Identifiable {
  /// The value's id.
  public var id: Value.ID { reference.untrackedValue.id }
}

extension SharedReader: CustomDumpRepresentable {
  /// Dumps as the value.
  public var customDumpValue: Any {
    reference.untrackedValue
  }
}

extension SharedReader: _CustomDiffObject {
  /// The value before and after, as ``Shared``'s.
  public var _customDiffValues: (Any, Any) {
    let value = reference.untrackedValue
    return (reference.valueBeforeDescribedStep() ?? value, value)
  }

  /// The box the value comes from.
  public var _objectIdentifier: ObjectIdentifier {
    reference.identity.box
  }
}

extension SharedReader {
  /// Calls `body` after each change of the value this reader refers to now, until the watch is
  /// released.
  package func watchChanges(_ body: @escaping @Sendable () -> Void) -> SharedWatch {
    reference.watch(body)
  }
}

extension SharedReader: CustomStringConvertible {
  /// `SharedReader<Int>(.appStorage("count"))`.
  public var description: String {
    "SharedReader<\(Value.self)>(\(reference.description))"
  }
}
