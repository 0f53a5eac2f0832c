import Dependencies

/// Values kept for `.inMemory` keys for as long as the app (or the test) runs, held or not.
public final class InMemoryStorage: Sendable {
  private let values = Locked<[String: any Sendable]>([:])

  /// Empty storage.
  public init() {}

  func value<Value>(at key: String) -> Value? {
    values.withLock { $0[key] } as? Value
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

  /// What is stored under the name, else `initialValue`.
  public func load(initialValue: Value) throws -> Value {
    storage.value(at: key) ?? initialValue
  }

  /// Keeps the value under the name.
  public func save(_ value: Value) throws {
    storage.set(value, at: key)
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
