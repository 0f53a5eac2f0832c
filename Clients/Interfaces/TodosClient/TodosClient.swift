import Dependencies
import DependenciesMacros
import Foundation
import StoredList

/// A todo as it is stored.
public struct TodoItem: Codable, Equatable, Hashable, Identifiable, Sendable {
  /// How urgent a todo is.
  public enum Priority: String, Codable, CaseIterable, Comparable, Sendable {
    /// Whenever.
    case low
    /// Soon.
    case medium
    /// First.
    case high

    /// Low before medium before high.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
  }

  /// The todo's identity.
  public let id: UUID
  /// What to do.
  public var title: String
  /// Whether it is done.
  public var isCompleted: Bool
  /// How urgent it is.
  public var priority: Priority
  /// When it was added.
  public var createdAt: Date

  /// A todo with the given fields.
  public init(
    id: UUID,
    title: String,
    isCompleted: Bool = false,
    priority: Priority = .medium,
    createdAt: Date
  ) {
    self.id = id
    self.title = title
    self.isCompleted = isCompleted
    self.priority = priority
    self.createdAt = createdAt
  }
}

/// One change to the stored list. Changes, rather than whole lists, are what gets saved: each is
/// applied to the latest stored list, so two processes editing at once keep both edits.
public enum TodoChange: Equatable, StoredListChange {
  /// Adds a todo before the one with the given id, or at the end when that one is not there.
  case add(TodoItem, before: UUID? = nil)
  /// Marks a todo done or not done.
  case setCompleted(id: UUID, Bool)
  /// Renames a todo.
  case setTitle(id: UUID, String)
  /// Changes a todo's priority.
  case setPriority(id: UUID, TodoItem.Priority)
  /// Removes todos.
  case delete(ids: [UUID])
  /// Puts the listed todos in this order; todos not listed keep their place after them.
  case reorder(ids: [UUID])

  /// Whether the todo the change edits is in `todos`: another process may have deleted it. Adds,
  /// deletes and reorders find what they need in any list.
  public func findsItsTodo(in todos: [TodoItem]) -> Bool {
    switch self {
    case .setCompleted(let id, _), .setTitle(let id, _), .setPriority(let id, _):
      todos.contains { $0.id == id }
    case .add, .delete, .reorder:
      true
    }
  }

  /// Applies the change to a list. A change naming a todo that is not there changes nothing:
  /// another process may have deleted it.
  public func apply(to todos: inout [TodoItem]) {
    func modify(_ id: UUID, _ body: (inout TodoItem) -> Void) {
      guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
      body(&todos[index])
    }
    switch self {
    case .add(let todo, let next):
      todos.removeAll { $0.id == todo.id }
      todos.insert(todo, at: todos.firstIndex { $0.id == next } ?? todos.endIndex)
    case .setCompleted(let id, let isCompleted):
      modify(id) { $0.isCompleted = isCompleted }
    case .setTitle(let id, let title):
      modify(id) { $0.title = title }
    case .setPriority(let id, let priority):
      modify(id) { $0.priority = priority }
    case .delete(let ids):
      let removed = Set(ids)
      todos.removeAll { removed.contains($0.id) }
    case .reorder(let ids):
      var byID = Dictionary(todos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      var reordered = ids.compactMap { byID.removeValue(forKey: $0) }
      reordered += todos.filter { byID[$0.id] != nil }
      todos = reordered
    }
  }
}

/// Loads and changes the stored todos.
@DependencyClient
public struct TodosClient: Sendable {
  /// Every stored todo, in order; none when nothing was stored yet.
  public var load: @Sendable () async throws -> [TodoItem]
  /// Applies a change to the stored todos.
  public var apply: @Sendable (_ change: TodoChange) async throws -> Void
  /// Tells each time the stored todos change, by this process or another, until cancelled.
  public var changes: @Sendable () -> AsyncStream<Void> = { .finished }
}

/// Why todos could not be loaded or saved.
public enum TodosError: Error, Equatable, Codable, Sendable, LocalizedError {
  /// The stored file could not be decoded; it was kept aside at this path, and nothing in it was
  /// lost or overwritten.
  case corrupt(keptAt: String)
  /// The todos could not be read.
  case unreadable(String)
  /// The change could not be saved.
  case unwritable(String)
  /// The todo the change edits is no longer stored: another process deleted it.
  case deletedElsewhere

  /// A sentence for the person using the app.
  public var errorDescription: String? {
    switch self {
    case .corrupt(let path):
      "The todo file could not be read. It was kept as \(path); a new list was started."
    case .unreadable(let reason): "Your todos could not be read: \(reason)"
    case .unwritable(let reason): "Your change could not be saved: \(reason)"
    case .deletedElsewhere: "That todo was deleted by another program."
    }
  }
}

extension TodosClient: TestDependencyKey {
  /// Fails the test on any unexpected use.
  public static let testValue = TodosClient()
  /// A few todos, kept in memory.
  public static var previewValue: TodosClient {
    let todos = LockIsolated<[TodoItem]>([
      TodoItem(
        id: UUID(0),
        title: "Buy milk",
        priority: .high,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000)
      ),
      TodoItem(
        id: UUID(1),
        title: "Water the plants",
        isCompleted: true,
        priority: .low,
        createdAt: Date(timeIntervalSince1970: 1_700_000_100)
      ),
    ])
    return .inMemory(todos)
  }

  /// A client over a list in memory, for previews and tests of features that use it.
  public static func inMemory(_ todos: LockIsolated<[TodoItem]>) -> Self {
    Self(
      load: { todos.value },
      apply: { change in todos.withValue { change.apply(to: &$0) } },
      changes: { .finished }
    )
  }
}

extension DependencyValues {
  /// The todos store.
  public var todosClient: TodosClient {
    get { self[TodosClient.self] }
    set { self[TodosClient.self] = newValue }
  }
}
