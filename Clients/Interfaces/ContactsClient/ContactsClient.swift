import Dependencies
import DependenciesMacros
import Foundation
import StoredList

/// A contact as it is stored.
public struct Contact: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// The contact's identity.
  public let id: UUID
  /// The name; never empty once saved.
  public var name: String
  /// An email address, or empty.
  public var email: String
  /// A phone number, or empty.
  public var phone: String
  /// Free-form notes.
  public var notes: String
  /// Whether the contact is a favourite.
  public var isFavorite: Bool

  /// A contact with the given fields.
  public init(
    id: UUID,
    name: String,
    email: String = "",
    phone: String = "",
    notes: String = "",
    isFavorite: Bool = false
  ) {
    self.id = id
    self.name = name
    self.email = email
    self.phone = phone
    self.notes = notes
    self.isFavorite = isFavorite
  }
}

/// One change to the stored contacts, applied to the latest stored list under a lock.
public enum ContactChange: Equatable, StoredListChange {
  /// Adds a contact, or replaces the one with the same id.
  case save(Contact)
  /// Removes a contact.
  case delete(id: UUID)

  /// Applies the change to a list.
  public func apply(to contacts: inout [Contact]) {
    switch self {
    case .save(let contact):
      if let index = contacts.firstIndex(where: { $0.id == contact.id }) {
        contacts[index] = contact
      } else {
        contacts.append(contact)
      }
    case .delete(let id):
      contacts.removeAll { $0.id == id }
    }
  }
}

/// Loads and changes the stored contacts.
@DependencyClient
public struct ContactsClient: Sendable {
  /// Every stored contact.
  public var load: @Sendable () async throws -> [Contact]
  /// Applies a change to the stored contacts.
  public var apply: @Sendable (_ change: ContactChange) async throws -> Void
  /// Tells each time the stored contacts change, by this process or another, until cancelled.
  public var changes: @Sendable () -> AsyncStream<Void> = { .finished }
}

/// Why contacts could not be loaded or saved.
public enum ContactsError: Error, Equatable, Codable, Sendable, LocalizedError {
  /// The stored file could not be decoded; it was kept aside at this path.
  case corrupt(keptAt: String)
  /// The contacts could not be read.
  case unreadable(String)
  /// The change could not be saved.
  case unwritable(String)

  /// A sentence for the person using the app.
  public var errorDescription: String? {
    switch self {
    case .corrupt(let path):
      "The contacts file could not be read. It was kept as \(path); a new book was started."
    case .unreadable(let reason): "Your contacts could not be read: \(reason)"
    case .unwritable(let reason): "Your change could not be saved: \(reason)"
    }
  }
}

extension ContactsClient: TestDependencyKey {
  /// Fails the test on any unexpected use.
  public static let testValue = ContactsClient()
  /// Two contacts, kept in memory.
  public static var previewValue: ContactsClient {
    let contacts = LockIsolated([
      Contact(id: UUID(0), name: "Ada Lovelace", email: "ada@example.com", isFavorite: true),
      Contact(id: UUID(1), name: "Alan Turing", phone: "+44 20 7946 0000"),
    ])
    return ContactsClient(
      load: { contacts.value },
      apply: { change in contacts.withValue { change.apply(to: &$0) } },
      changes: { .finished }
    )
  }
}

extension DependencyValues {
  /// The contacts store.
  public var contactsClient: ContactsClient {
    get { self[ContactsClient.self] }
    set { self[ContactsClient.self] = newValue }
  }
}
