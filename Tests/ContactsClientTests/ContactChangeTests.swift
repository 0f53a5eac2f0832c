import ContactsClient
import Foundation
import Testing

struct ContactChangeTests {
  @Test func saveAddsOrReplacesAndDeleteRemoves() {
    var contacts: [Contact] = []
    let ada = Contact(id: UUID(1), name: "Ada")
    ContactChange.save(ada).apply(to: &contacts)
    var renamed = ada
    renamed.name = "Ada King"
    ContactChange.save(renamed).apply(to: &contacts)
    #expect(contacts == [renamed])
    ContactChange.delete(id: ada.id).apply(to: &contacts)
    #expect(contacts.isEmpty)
  }

  @Test func previewHasContacts() async throws {
    #expect(try await ContactsClient.previewValue.load().count == 2)
  }
}
