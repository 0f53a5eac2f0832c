@_exported import ContactsClient
import Dependencies
import FileStore
import FileSystem
import Foundation

extension ContactsClient {
  /// Contacts in one JSON file, through the same ``FileStore`` as todos.
  public static func live(file: URL) -> Self {
    let store = FileStore<[Contact]>(url: file, emptyValue: [])
    return Self(
      load: { try await store.load(reportingAs: ContactsError.self) },
      apply: { change in
        try await store.update(reportingAs: ContactsError.self) { change.apply(to: &$0) }
      },
      changes: { store.changes(every: .milliseconds(500)) }
    )
  }

  /// `contacts.json` in the app's data directory.
  public static func defaultFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    AppDirectories.data(environment: environment).appendingPathComponent("contacts.json")
  }
}

extension ContactsError: StoredDataError {}

extension ContactsClient: DependencyKey {
  /// The contacts file in the default data directory.
  public static var liveValue: ContactsClient { .live(file: defaultFile()) }
}
