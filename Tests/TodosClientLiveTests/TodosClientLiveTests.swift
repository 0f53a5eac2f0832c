import Foundation
import Testing
import TodosClientLive

struct TodosClientLiveTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("todos-live-\(UUID().uuidString)")

  var file: URL { directory.appendingPathComponent("todos.json") }

  @Test func changesPersistAcrossClients() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let todo = TodoItem(
      id: UUID(7), title: "Buy milk", priority: .high, createdAt: Date(timeIntervalSince1970: 100))
    try await TodosClient.live(file: file).apply(.add(todo))
    try await TodosClient.live(file: file).apply(.setCompleted(id: todo.id, true))
    var expected = todo
    expected.isCompleted = true
    #expect(try await TodosClient.live(file: file).load() == [expected])
  }

  @Test func anEditOfATodoDeletedElsewhereFailsAndWritesNothing() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let todo = TodoItem(id: UUID(7), title: "Buy milk", createdAt: Date(timeIntervalSince1970: 100))
    let ours = TodosClient.live(file: file)
    try await ours.apply(.add(todo))
    // Another process deletes it.
    try await TodosClient.live(file: file).apply(.delete(ids: [todo.id]))
    let before = try Data(contentsOf: file)
    await #expect(throws: TodosError.deletedElsewhere) {
      try await ours.apply(.setCompleted(id: todo.id, true))
    }
    #expect(try Data(contentsOf: file) == before)
  }

  @Test func aChangeByAnotherWriterIsTold() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    let ours = TodosClient.live(file: file)
    var changes = ours.changes().makeAsyncIterator()
    // The watch starts from the file as it is now: missing. A second client stands in for
    // another process.
    let added = Task {
      try await Task.sleep(for: .milliseconds(50))
      try await TodosClient.live(file: file).apply(
        .add(TodoItem(id: UUID(1), title: "Eggs", createdAt: Date(timeIntervalSince1970: 0))))
    }
    #expect(await changes.next() != nil)
    try await added.value
    #expect(try await ours.load().map(\.title) == ["Eggs"])
  }

  @Test func aCorruptFileIsATypedErrorNamingWhereItWasKept() async throws {
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: file)
    await #expect {
      try await TodosClient.live(file: file).load()
    } throws: { error in
      guard case .corrupt(let keptAt)? = error as? TodosError else { return false }
      return keptAt.hasPrefix(file.path + ".corrupt-")
        && (try? Data(contentsOf: URL(fileURLWithPath: keptAt))) == Data("not json".utf8)
    }
    #expect(try await TodosClient.live(file: file).load() == [])
  }

  @Test func defaultLocationFollowsXDG() {
    #expect(
      TodosClient.defaultFile(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]).path
        == "/d/composable/todos.json"
    )
    #expect(
      TodosClient.defaultFile(environment: ["HOME": "/h"]).path
        == "/h/.local/share/composable/todos.json"
    )
  }
}
