/// Where a shared value lives and how it is read: `.inMemory("key")`, `.fileStorage(url)`,
/// `.appStorage("name")`, or a strategy of your own. Two `@SharedReader`s or `@Shared`s with
/// equal keys hold one value.
public protocol SharedReaderKey<Value>: Sendable {
  /// The shared value.
  associatedtype Value: Sendable
  /// What makes two keys the same storage.
  associatedtype ID: Hashable & Sendable

  /// Equal ids share one value.
  var id: ID { get }

  /// The stored value, or `initialValue` when nothing is stored yet; throws when what is stored
  /// cannot be read (the holder keeps `initialValue` and reports the error).
  func load(initialValue: Value) throws -> Value

  /// Calls `didChange` with each value stored from outside this process's holders (another
  /// process writing the file); cancelled when the subscription is released.
  func subscribe(didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription
}

/// A key whose value can also be written: what `@Shared` needs.
public protocol SharedKey<Value>: SharedReaderKey {
  /// How long to gather changes before writing them, so a burst of edits is one write; `nil`
  /// writes every change at once.
  var saveInterval: Duration? { get }

  /// Stores `value`.
  func save(_ value: Value) throws
}

extension SharedKey {
  /// Every change is written at once.
  public var saveInterval: Duration? { nil }
}

extension SharedReaderKey {
  /// No outside changes to follow.
  public func subscribe(didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    SharedSubscription {}
  }
}

/// An active subscription to a key's outside changes; releasing it cancels it.
public final class SharedSubscription: Sendable {
  private let onCancel: @Sendable () -> Void

  /// A subscription that calls `cancel` when released.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.onCancel = cancel
  }

  deinit {
    onCancel()
  }
}
