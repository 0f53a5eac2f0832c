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

  /// The file's value, or the holder's initial value when there is no file.
  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    continuation.resume(
      with: Result { try watch.read { try storage.loadIfPresent(Value.self, from: url) } })
  }

  /// Writes the value.
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    continuation.resume(with: Result { try watch.write { try storage.saveSigned(value, to: url) } })
  }

  /// Once a second on disk, at once in memory.
  public var saveInterval: Duration? { storage.saveInterval }

  /// Follows writes by other processes.
  public func subscribe(
    context: LoadContext<Value>, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
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
      }, to: subscriber)
  }

  /// `.fileStorage(url)`.
  public var description: String { ".fileStorage(\(url))" }
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

#if !canImport(Darwin)
  extension URL {
    /// Where the user's documents live, as on Apple platforms: the app's data directory,
    /// `$XDG_DATA_HOME/composable`, else `~/.local/share/composable`. Lets
    /// `.fileStorage(.documentsDirectory.appending(component: "todos.json"))` port unchanged.
    public static var documentsDirectory: URL {
      AppDirectories.data()
    }
  }
#endif
