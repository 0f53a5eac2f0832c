import Dependencies

/// Values kept for `.inMemory` keys for as long as the app (or the test) runs, held or not.
public final class InMemoryStorage: Sendable {
  private let values = Locked<[String: any Sendable]>([:])

  /// Empty storage.
  public init() {}

  func value<Value>(at key: String) -> Value? {
    // Unwrapped first: a missing entry cast to an optional `Value` would read as a stored `nil`.
    guard let stored = values.withLock({ $0[key] }) else { return nil }
    return stored as? Value
  }

  /// What is stored under `key`, storing `initialValue` there when nothing is: the first
  /// holder's value stays after every holder is gone.
  func value<Value: Sendable>(at key: String, storing initialValue: Value) -> Value {
    values.withLock { values in
      if let stored = values[key], let value = stored as? Value { return value }
      values[key] = initialValue
      return initialValue
    }
  }

  func set(_ value: some Sendable, at key: String) {
    values.withLock { $0[key] = value }
  }
}

extension InMemoryStorage: DependencyKey {
  /// The app's in-memory values.
  public static var liveValue: InMemoryStorage { InMemoryStorage() }
  /// A test's own in-memory values.
  public static var testValue: InMemoryStorage { InMemoryStorage() }
}

extension DependencyValues {
  /// Where `.inMemory` keys keep their values.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[InMemoryStorage.self] }
    set { self[InMemoryStorage.self] = newValue }
  }
}

/// A value shared in memory under a name, lost when the process ends.
public struct InMemoryKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  let key: String
  let storage: InMemoryStorage

  /// The name is the id: equal names share one value.
  public var id: String { key }

  /// What is stored under the name; a new holder's initial value is stored when nothing is.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    switch context {
    case .initialValue(let initialValue):
      continuation.resume(returning: storage.value(at: key, storing: initialValue))
    case .userInitiated:
      if let value: Value = storage.value(at: key) {
        continuation.resume(returning: value)
      } else {
        continuation.resumeReturningInitialValue()
      }
    }
  }

  /// Nothing changes an in-memory value but its holders.
  public func subscribe(
    context: LoadContext<Value>, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  /// Keeps the value under the name.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    storage.set(value, at: key)
    continuation.resume()
  }

  /// `.inMemory("name")`.
  public var description: String { ".inMemory(\"\(key)\")" }
}

extension SharedReaderKey {
  /// A value shared in memory under `key`: `@Shared(.inMemory("events")) var events: [String] = []`.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    @Dependency(\.defaultInMemoryStorage) var storage
    return InMemoryKey(key: key, storage: storage)
  }
}
