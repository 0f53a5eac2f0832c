import CustomDump
import Dependencies
import IdentifiedCollections
import Observation

/// A value several features hold at once, optionally persisted: `@Shared(.inMemory("events"))
/// var events: [String] = []`. Every holder sees a change at once; change it with
/// `$events.withLock { $0.append("…") }`.
///
/// Copies of one holder share what it refers to: `$events = other` makes every copy refer to
/// `other`'s value, as in swift-sharing. Parts taken before (`$events.count`) keep the old one.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value: Sendable>: Sendable {
  private let holder: Locked<any SharedReference<Value>>

  init(reference: any SharedReference<Value>) {
    holder = Locked(reference)
  }

  /// What this holder and its copies refer to now.
  var reference: any SharedReference<Value> {
    holder.withLock { $0 }
  }

  /// A shared value that no key stores, held by whoever this is handed to.
  public init(value: Value) {
    @Dependency(\.sharedReferences) var references
    self.init(reference: SharedBox(value: value, references: references))
  }

  /// The value inside `base` while it has one: `nil` when `base` holds `nil` now. Later, when
  /// `base` becomes `nil`, this keeps its last value, and changes to it go nowhere.
  public init?(_ base: Shared<Value?>) {
    guard let value = base.wrappedValue else { return nil }
    self.init(reference: UnwrappedReference(base: base.reference, lastValue: value))
  }

  /// The same shared value: `_events = Shared(projectedValue: otherHolder.$events)`.
  public init(projectedValue: Shared<Value>) {
    self = projectedValue
  }

  /// The current value. Reading it inside observation tracking observes it.
  public var wrappedValue: Value {
    reference.value
  }

  /// The shared value itself, for `withLock` and for handing it to another feature. Setting it
  /// points this holder and its copies at another shared value.
  public var projectedValue: Shared<Value> {
    get { self }
    nonmutating set {
      let reference = newValue.reference
      holder.withLock { $0 = reference }
    }
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

  /// A part of the value that cannot be written (a `let` property): `$user.id`.
  public subscript<Member: Sendable>(
    dynamicMember keyPath: KeyPath<Value, Member>
  ) -> SharedReader<Member> {
    SharedReader(self)[dynamicMember: keyPath]
  }

  /// A value computed from this one, kept up to date: `$count.read { $0 == 0 }`.
  public func read<Member: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Member
  ) -> SharedReader<Member> {
    SharedReader(self).read(transform)
  }

  /// Whether the key is loading the value (its first load, or `load()`).
  public var isLoading: Bool {
    reference.isLoading
  }

  /// Loads the stored value again; throws why it could not be loaded.
  public func load() async throws {
    try await reference.load()
  }

  /// Points this holder at `key`'s value, keeping the current value until it is loaded, then
  /// loads it.
  public func load(_ key: some SharedKey<Value>) async throws {
    @Dependency(\.sharedReferences) var references
    projectedValue = Shared(
      reference: references.box(for: key, initialValue: wrappedValue, skipInitialLoad: true))
    try await load()
  }

  /// Why the stored value could not be read, if it could not: the holder goes on with its
  /// value.
  public var loadError: (any Error)? {
    reference.loadError
  }

  /// Why the last change could not be stored, if it could not.
  public var saveError: (any Error)? {
    reference.saveError
  }

  /// Writes the value now, instead of when its key's save interval ends; throws why it could not
  /// be written. A value picked up from another process is not written back: its storage
  /// already holds it, or a newer one.
  public func save() async throws {
    try await reference.save()
  }

  /// Whether two holders hold the very same shared value (not only equal ones).
  public func isSameReference(as other: Shared<Value>) -> Bool {
    reference.identity == other.reference.identity
  }
}

extension Shared {
  /// The value stored at `key`, or `wrappedValue` while nothing is stored there.
  public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) {
    self.init(key: key, initialValue: wrappedValue(), skipInitialLoad: false)
  }

  /// The value stored at `key`, or `nil`.
  @_disfavoredOverload
  public init<Wrapped>(_ key: some SharedKey<Value>) where Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }

  /// The value stored at `key`, or the key's default: `@Shared(.isOn) var isOn`.
  public init<Key: SharedKey<Value>>(_ key: _SharedKeyDefault<Key>) {
    self.init(wrappedValue: key.initialValue, key.base)
  }

  /// The value stored at `key`, or `wrappedValue`, which wins over the key's default.
  public init<Key: SharedKey<Value>>(
    wrappedValue: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) {
    self.init(wrappedValue: wrappedValue(), key.base)
  }

  /// A key without a default needs a value at the holder.
  @available(*, unavailable, message: "Assign a default value")
  public init(_ key: some SharedKey<Value>) {
    fatalError()
  }

  /// The value stored at `key`, loaded now; throws when it cannot be loaded or nothing is stored.
  public init(require key: some SharedKey<Value>) async throws {
    guard let value = try await loadRequired(key) else { throw SharedLoadError(key) }
    self.init(key: key, initialValue: value, skipInitialLoad: true)
    if let error = loadError { throw error }
  }

  private init(
    key: some SharedKey<Value>, initialValue: @autoclosure () -> Value, skipInitialLoad: Bool
  ) {
    @Dependency(\.sharedReferences) var references
    self.init(
      reference: references.box(
        for: key, initialValue: initialValue(), skipInitialLoad: skipInitialLoad))
  }
}

/// Why `require:` gave no value.
public enum SharedLoadError: Error, CustomStringConvertible {
  /// The key has nothing stored.
  case notFound(String)

  init(_ key: some SharedReaderKey) {
    self = .notFound(String(reflecting: key))
  }

  /// Names the key.
  public var description: String {
    switch self {
    case .notFound(let key): "Nothing is stored at \(key)."
    }
  }
}

/// Asks `key` for its stored value: `nil` when nothing is stored.
func loadRequired<Key: SharedReaderKey>(_ key: Key) async throws -> Key.Value? {
  try await withCheckedThrowingContinuation { waiter in
    key.load(
      context: .userInitiated,
      continuation: LoadContinuation("\(key)") { waiter.resume(with: $0) })
  }
}

extension Shared: Equatable where Value: Equatable {
  /// Equal when their values are: the left one's before the step while `_printChanges` describes
  /// one, or its expected value inside a change tracker's `assert`.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.reference.valueBeforeDescribedStep(comparedWith: rhs.reference) ?? lhs.wrappedValue)
      == rhs.wrappedValue
  }
}

extension Shared: Hashable where Value: Hashable {
  /// Hashes the value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension Shared: Identifiable where Value: Identifiable {
  /// The value's id.
  public var id: Value.ID { reference.untrackedValue.id }
}

extension Shared: CustomDumpRepresentable {
  /// Dumps as the value, so a test's diff shows what changed.
  public var customDumpValue: Any {
    reference.untrackedValue
  }
}

extension Shared: _CustomDiffObject {
  /// The value before and after: holders of one shared value never differ from each other, but
  /// while a step's change is described the left side is the value before it.
  public var _customDiffValues: (Any, Any) {
    let value = reference.untrackedValue
    return (reference.valueBeforeDescribedStep() ?? value, value)
  }

  /// The box: every holder of it, and of its parts, dumps as one object (`#1`).
  public var _objectIdentifier: ObjectIdentifier {
    reference.identity.box
  }
}

extension Shared {
  /// Calls `body` after each change of the value this holder refers to now, until the watch is
  /// released: what `publisher` is made of.
  package func watchChanges(_ body: @escaping @Sendable () -> Void) -> SharedWatch {
    reference.watch(body)
  }
}

extension Shared: CustomStringConvertible {
  /// `Shared<Int>(.inMemory("count"))`, or `Shared<Int>(value: 0)` for a value no key stores.
  public var description: String {
    "Shared<\(Value.self)>(\(reference.description))"
  }
}

extension RangeReplaceableCollection {
  /// One shared value per element of an identified collection, each following its element by
  /// id: `Array($todos)` gives a `Shared<Todo>` per todo.
  public init<Base: _MutableIdentifiedCollection & Sendable>(_ shared: Shared<Base>)
  where Element == Shared<Base.Element>, Base.Element: Sendable {
    self.init()
    let value = shared.wrappedValue
    reserveCapacity(value.count)
    for id in value.ids {
      // A subscript key path needs a sendable index: the ids are the collection's own.
      let path = UncheckedSendable(\Base.[id: id])
      guard let element = Shared<Base.Element>(shared[dynamicMember: path.value]) else { continue }
      append(element)
    }
  }

  /// One reader per element of an identified collection, each following its element by id.
  public init<Base: _IdentifiedCollection & Sendable>(_ shared: SharedReader<Base>)
  where Element == SharedReader<Base.Element>, Base.Element: Sendable {
    self.init()
    let value = shared.wrappedValue
    reserveCapacity(value.count)
    for id in value.ids {
      let path = UncheckedSendable(\Base.[id: id])
      guard let element = SharedReader<Base.Element>(shared[dynamicMember: path.value]) else {
        continue
      }
      append(element)
    }
  }
}
