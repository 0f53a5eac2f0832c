import ContactsClientLive
import Foundation
import Testing

/// The contacts store on real files, tested as the todos one is.
struct ContactsClientLiveTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("contacts-live-\(UUID().uuidString)")

  var file: URL { directory.appendingPathComponent("contacts.json") }

  @Test func changesPersistAcrossClients() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let ada = Contact(id: UUID(1), name: "Ada", email: "ada@example.com")
    try await ContactsClient.live(file: file).apply(.save(ada))
    try await ContactsClient.live(file: file).apply(.save(Contact(id: UUID(2), name: "Alan")))
    try await ContactsClient.live(file: file).apply(.delete(id: UUID(2)))
    #expect(try await ContactsClient.live(file: file).load() == [ada])
  }

  @Test func aCorruptFileIsKeptAsideAndReported() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("[{\"id\": 1}]".utf8).write(to: file)
    await #expect {
      try await ContactsClient.live(file: file).load()
    } throws: { error in
      guard case .corrupt(let keptAt)? = error as? ContactsError else { return false }
      return FileManager.default.fileExists(atPath: keptAt)
    }
  }

  @Test func concurrentWritersLoseNothing() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let client = ContactsClient.live(file: file)
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<20 {
        group.addTask {
          try? await client.apply(.save(Contact(id: UUID(index), name: "Contact \(index)")))
        }
      }
    }
    #expect(try await client.load().count == 20)
  }
}
