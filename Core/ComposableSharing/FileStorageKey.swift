import Dependencies
import FileSystem
import Foundation
import IssueReporting

/// A value shared through a JSON file: `@Shared(.fileStorage(url)) var todos: [Todo] = []`.
///
/// Writes replace the file atomically (a temporary file renamed over it, under a lock), at most
/// once per second: a burst of edits is one write. A write by another process is picked up within
/// half a second. A file that cannot be decoded is moved aside and reported; the holders go on
/// with their value, and the next change writes a new file.
public struct FileStorageKey<Value: Codable & Sendable>: SharedKey, CustomStringConvertible {
  let url: URL
  let storage: any FileStorage
  let watch: FileWatch

  init(url: URL, storage: any FileStorage) {
    self.url = url
    self.storage = storage
    watch = FileWatch(url: url, storage: storage)
  }

  /// The file's path: holders of one file share one value.
  public var id: String { url.standardizedFileURL.path }

  /// The file's value, or `initialValue` when there is no file.
  public func load(initialValue: Value) throws -> Value {
    try watch.read {
      try storage.load(Value.self, from: url, initialValue: initialValue)
    }
  }

  /// Writes the value.
  public func save(_ value: Value) throws {
    try watch.write { try storage.saveSigned(value, to: url) }
  }

  /// Once a second on disk, at once in memory.
  public var saveInterval: Duration? { storage.saveInterval }

  /// Follows writes by other processes.
  public func subscribe(didChange: @escaping @Sendable (Value) -> Void) -> SharedSubscription {
    let (url, storage) = (url, storage)
    return watch.start(
      load: { () -> Value? in
        // A file made unreadable by someone else is moved aside by the load; the holders keep
        // their value, and the next change writes a good file again.
        do {
          return try storage.loadIfPresent(Value.self, from: url)
        } catch {
          reportIssue("Could not load the changed file \(url.path): \(error)")
          return nil
        }
      }, deliver: didChange)
  }

  /// `.fileStorage(url)`.
  public var description: String { ".fileStorage(\(url.path))" }
}

extension FileStorage {
  /// The file's value, or `nil` when it is gone.
  func loadIfPresent<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL
  ) throws -> Value? {
    try load(Value?.self, from: url, initialValue: nil)
  }
}

extension SharedReaderKey {
  /// A value shared through the JSON file at `url`.
  public static func fileStorage<Value: Codable & Sendable>(
    _ url: URL
  ) -> Self where Self == FileStorageKey<Value> {
    @Dependency(\.defaultFileStorage) var storage
    return FileStorageKey(url: url, storage: storage)
  }
}
