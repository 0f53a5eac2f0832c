import Dependencies
import FileStore
import FileSystem
import Foundation
@_exported import TodosClient

extension TodosClient {
  /// Todos in one JSON file, through ``FileStore``: atomic writes, changes applied under a lock,
  /// and a corrupt file kept aside and reported.
  public static func live(file: URL) -> Self {
    let store = FileStore<[TodoItem]>(url: file, emptyValue: [])
    return Self(
      load: {
        do {
          return try store.load()
        } catch {
          throw TodosError(error as? FileStoreError ?? .rejected(reason: "\(error)"))
        }
      },
      apply: { change in
        do {
          try store.update { change.apply(to: &$0) }
        } catch {
          throw TodosError(error as? FileStoreError ?? .rejected(reason: "\(error)"))
        }
      }
    )
  }

  /// `$XDG_DATA_HOME/composable/todos.json`, else `~/.local/share/composable/todos.json`.
  public static func defaultFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    AppDirectories.data(environment: environment).appendingPathComponent("todos.json")
  }

}

extension TodosError {
  init(_ error: FileStoreError) {
    switch error {
    case .corrupt(let movedTo, _): self = .corrupt(keptAt: movedTo)
    case .readFailed, .lockFailed: self = .unreadable(error.description)
    case .writeFailed, .rejected: self = .unwritable(error.description)
    }
  }
}

extension TodosClient: DependencyKey {
  /// The todo file in the default data directory.
  public static var liveValue: TodosClient { .live(file: defaultFile()) }
}
