import ConcurrencyExtras
import Foundation
import Testing
import TodosClient

struct TodoChangeTests {
  let date = Date(timeIntervalSince1970: 0)
  var a: TodoItem { TodoItem(id: UUID(0), title: "a", createdAt: date) }
  var b: TodoItem { TodoItem(id: UUID(1), title: "b", createdAt: date) }
  var c: TodoItem { TodoItem(id: UUID(2), title: "c", createdAt: date) }

  @Test func everyChangeApplies() {
    var todos = [a, b]
    TodoChange.add(c).apply(to: &todos)
    TodoChange.setCompleted(id: b.id, true).apply(to: &todos)
    TodoChange.setTitle(id: a.id, "A").apply(to: &todos)
    TodoChange.setPriority(id: c.id, .high).apply(to: &todos)
    #expect(todos.map(\.title) == ["A", "b", "c"])
    #expect(todos[1].isCompleted)
    #expect(todos[2].priority == .high)
    TodoChange.reorder(ids: [c.id, a.id]).apply(to: &todos)
    #expect(todos.map(\.id) == [c.id, a.id, b.id])
    TodoChange.delete(ids: [a.id, c.id]).apply(to: &todos)
    #expect(todos.map(\.id) == [b.id])
  }

  @Test func changesToMissingTodosChangeNothing() {
    var todos = [a]
    for change in [
      TodoChange.setCompleted(id: b.id, true), .setTitle(id: b.id, "x"), .delete(ids: [b.id]),
      .reorder(ids: [b.id]),
    ] {
      change.apply(to: &todos)
    }
    #expect(todos == [a])
  }

  @Test func addingAnExistingIdReplacesIt() {
    var todos = [a, b]
    var renamed = a
    renamed.title = "again"
    TodoChange.add(renamed).apply(to: &todos)
    #expect(todos.map(\.title) == ["b", "again"])
  }

  @Test func inMemoryClientAndPreview() async throws {
    let storage = LockIsolated<[TodoItem]>([])
    let client = TodosClient.inMemory(storage)
    try await client.apply(.add(a))
    #expect(try await client.load() == [a])
    #expect(try await TodosClient.previewValue.load().count == 2)
  }

  @Test func prioritiesOrderLowToHigh() {
    #expect(TodoItem.Priority.low < .medium)
    #expect(TodoItem.Priority.medium < .high)
  }
}
