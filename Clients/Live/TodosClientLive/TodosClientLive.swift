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
      load: { try await store.load(reportingAs: TodosError.self) },
      apply: { change in
        try await store.update(reportingAs: TodosError.self) { todos in
          // An edit of a todo deleted elsewhere fails, rather than doing nothing in silence.
          guard change.findsItsTodo(in: todos) else { throw TodosError.deletedElsewhere }
          change.apply(to: &todos)
        }
      },
      changes: { store.changes(every: .milliseconds(500)) }
    )
  }

  /// `$XDG_DATA_HOME/composable/todos.json`, else `~/.local/share/composable/todos.json`.
  public static func defaultFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    AppDirectories.data(environment: environment).appendingPathComponent("todos.json")
  }

}

extension TodosError: StoredDataError {}

extension TodosClient: DependencyKey {
  /// The todo file in the default data directory.
  public static var liveValue: TodosClient { .live(file: defaultFile()) }
}
