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
      load: {
        do {
          return try store.load()
        } catch {
          throw ContactsError(error as? FileStoreError ?? .rejected(reason: "\(error)"))
        }
      },
      apply: { change in
        do {
          try store.update { change.apply(to: &$0) }
        } catch {
          throw ContactsError(error as? FileStoreError ?? .rejected(reason: "\(error)"))
        }
      }
    )
  }

  /// `contacts.json` in the app's data directory.
  public static func defaultFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    AppDirectories.data(environment: environment).appendingPathComponent("contacts.json")
  }
}

extension ContactsError {
  init(_ error: FileStoreError) {
    switch error {
    case .corrupt(let movedTo, _): self = .corrupt(keptAt: movedTo)
    case .readFailed, .lockFailed: self = .unreadable(error.description)
    case .writeFailed, .rejected: self = .unwritable(error.description)
    }
  }
}

extension ContactsClient: DependencyKey {
  /// The contacts file in the default data directory.
  public static var liveValue: ContactsClient { .live(file: defaultFile()) }
}
