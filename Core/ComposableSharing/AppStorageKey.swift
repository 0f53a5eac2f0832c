import Dependencies
import FileSystem
import Foundation
import IssueReporting

/// A setting shared under a name: `@Shared(.appStorage("soundsOn")) var soundsOn = true`.
///
/// On Linux every setting lives in one JSON object, `$XDG_CONFIG_HOME/composable/settings.json`
/// (else `~/.config/composable/settings.json`), changed one key at a time under a lock so two
/// processes changing different settings both keep their change; other processes' changes are
/// picked up within half a second. Tests keep settings in memory.
public struct AppStorageKey<Value: Codable & Sendable>: SharedKey, CustomStringConvertible {
  let key: String
  let url: URL
  let storage: any FileStorage
  let watch: FileWatch
  /// The setting as last read or written here. Another setting's change moves the file too: only
  /// a new value of this one is news, and taking its old value again would undo a change of ours
  /// still waiting to be written.
  let lastSeen = Locked<JSONValue?>(nil)

  init(key: String, url: URL, storage: any FileStorage) {
    self.key = key
    self.url = url
    self.storage = storage
    watch = FileWatch(url: url, storage: storage)
  }

  /// The setting's name and file.
  public var id: String { "\(url.standardizedFileURL.path)#\(key)" }

  /// The stored setting, or the holder's initial value when it was never set.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resume(
      with: Result {
        try watch.read {
          let json = try storage.load(Settings.self, from: url, initialValue: [:])[key]
          lastSeen.withLock { $0 = json }
          return try json?.decode(Value.self)
        }
      })
  }

  /// Stores the setting, leaving the others as they are.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    continuation.resume(
      with: Result {
        let json = try JSONValue(value)
        try watch.write {
          let signature = try storage.updateSigned(Settings.self, at: url, initialValue: [:]) {
            $0[key] = json
          }
          lastSeen.withLock { $0 = json }
          return signature
        }
      })
  }

  /// Follows changes made by other processes.
  public func subscribe(
    context: LoadContext<Value>, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    let (key, url, storage, lastSeen) = (key, url, storage, lastSeen)
    return watch.start(
      load: { () -> Value? in
        do {
          let settings = try storage.load(Settings.self, from: url, initialValue: [:])
          guard let json = settings[key], json != lastSeen.withLock({ $0 }) else { return nil }
          let value = try json.decode(Value.self)
          lastSeen.withLock { $0 = json }
          return value
        } catch {
          reportIssue("Could not load the changed settings \(url.path): \(error)")
          return nil
        }
      }, to: subscriber)
  }

  /// `.appStorage("name")`.
  public var description: String { ".appStorage(\"\(key)\")" }
}

typealias Settings = [String: JSONValue]

extension SharedReaderKey {
  /// A setting shared under `key`, kept in the app's settings file.
  public static func appStorage<Value: Codable & Sendable>(
    _ key: String
  ) -> Self where Self == AppStorageKey<Value> {
    @Dependency(\.defaultFileStorage) var storage
    @Dependency(\.appStorageURL) var url
    return AppStorageKey(key: key, url: url, storage: storage)
  }
}

private enum AppStorageURLKey: DependencyKey {
  static var liveValue: URL {
    AppDirectories.config().appendingPathComponent("settings.json")
  }
  static var testValue: URL {
    URL(fileURLWithPath: "/composable-tests/settings.json")
  }
}

extension DependencyValues {
  /// The settings file of `.appStorage`.
  public var appStorageURL: URL {
    get { self[AppStorageURLKey.self] }
    set { self[AppStorageURLKey.self] = newValue }
  }
}

/// Any JSON value, so one settings file holds settings of every type.
enum JSONValue: Codable, Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(_ value: some Encodable) throws {
    self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
  }

  func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(self))
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      // Whole numbers are written as integers, so an `Int` setting reads back as one.
      if value.rounded() == value, abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
