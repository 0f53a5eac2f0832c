import ArgumentParser
import ComposableCore
import Foundation
import TodoListFeature
import TodosClient

struct Todos: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Lists and changes todos.",
    subcommands: [List.self, Add.self, Done.self, Undone.self, Remove.self, ClearCompleted.self],
    defaultSubcommand: List.self
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lists todos.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "all, active or completed.") var filter: TodoList.Filter = .all
    @Option(help: "Only todos whose title contains this text.") var search: String?
    @Flag(help: "Print JSON: an array of todos.") var json = false

    func run() async throws {
      let (options, filter, search, json) = (options, filter, search, json)
      try await runCommand {
        let store = try await loadedTodos(options)
        // A command's filter is for this listing only: the app's filter preference stays.
        if let search {
          await store.send(.set(\.searchQuery, search)).finish()
        }
        let todos = Array(store.state.visibleTodos(filteredBy: filter))
        if json {
          try Output.json(todos.map(TodoOutput.init))
        } else if todos.isEmpty {
          print("No todos.")
        } else {
          for todo in todos { Output.line(TodoOutput(todo).line) }
        }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Adds a todo.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "What to do.") var title: String
    @Option(help: "low, medium or high.") var priority: TodoItem.Priority = .medium
    @Flag(help: "Print the new todo as JSON.") var json = false

    func run() async throws {
      let (options, title, priority, json) = (options, title, priority, json)
      try await runCommand {
        let store = try await loadedTodos(options)
        let before = Set(store.state.todos.ids)
        store.send(.set(\.newTitle, title))
        store.send(.set(\.newPriority, priority))
        await store.send(.addButtonTapped).finish()
        if let error = store.state.newTitleError { throw Failure(error) }
        try checkSaved(store)
        guard let added = store.state.todos.first(where: { !before.contains($0.id) }) else {
          throw Failure("the todo was not added")
        }
        if json {
          try Output.json(TodoOutput(added))
        } else {
          Output.line("Added \(TodoOutput(added).line)")
        }
      }
    }
  }

  struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Marks a todo done.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The todo's id, or a prefix of it that only one todo has.") var id: String

    func run() async throws {
      let (options, id) = (options, id)
      try await runCommand { try await setCompleted(true, id: id, options) }
    }
  }

  struct Undone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Marks a todo not done.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The todo's id, or a prefix of it that only one todo has.") var id: String

    func run() async throws {
      let (options, id) = (options, id)
      try await runCommand { try await setCompleted(false, id: id, options) }
    }
  }

  struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Deletes a todo.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The todo's id, or a prefix of it that only one todo has.") var id: String

    func run() async throws {
      let (options, id) = (options, id)
      try await runCommand {
        let store = try await loadedTodos(options)
        let todo = try resolve(id, in: store.state.todos)
        await store.send(.deleteButtonTapped(id: todo.id)).finish()
        try checkSaved(store)
        Output.line("Deleted \(TodoOutput(todo).line)")
      }
    }
  }

  struct ClearCompleted: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Deletes every completed todo.")
    @OptionGroup var options: GlobalOptions

    func run() async throws {
      let options = options
      try await runCommand {
        let store = try await loadedTodos(options)
        let count = store.state.todos.count { $0.isCompleted }
        await store.send(.clearCompletedButtonTapped).finish()
        try checkSaved(store)
        print("Deleted \(count) completed todo\(count == 1 ? "" : "s").")
      }
    }
  }
}

extension TodoList.Filter: ExpressibleByArgument {}
extension TodoItem.Priority: ExpressibleByArgument {}

/// The todo list, loaded; a load failure (such as a corrupt file) is the command's failure.
@MainActor
func loadedTodos(_ options: GlobalOptions) async throws -> StoreOf<TodoList> {
  let store = try commandStore(options, TodoList.State()) { TodoList() }
  await store.send(.onAppear).finish()
  if let alert = store.state.alert {
    throw Failure(alert.message?.string ?? alert.title.string)
  }
  return store
}

/// A save the list rolled back is the command's failure.
@MainActor
func checkSaved(_ store: StoreOf<TodoList>) throws {
  if let alert = store.state.alert { throw Failure(alert.message?.string ?? alert.title.string) }
}

@MainActor
func setCompleted(_ isCompleted: Bool, id: String, _ options: GlobalOptions) async throws {
  let store = try await loadedTodos(options)
  let todo = try resolve(id, in: store.state.todos)
  if todo.isCompleted != isCompleted {
    await store.send(.todos(.element(id: todo.id, action: .toggleCompletionButtonTapped))).finish()
    try checkSaved(store)
  }
  Output.line(
    "\(isCompleted ? "Done" : "Not done"): \(TodoOutput(store.state.todos[id: todo.id] ?? todo).line)"
  )
}

/// The todo a full id or a unique prefix of one names.
func resolve(_ id: String, in todos: IdentifiedArrayOf<TodoItem>) throws -> TodoItem {
  let needle = id.lowercased()
  let matches = todos.filter { $0.id.uuidString.lowercased().hasPrefix(needle) }
  switch matches.count {
  case 1: return matches[0]
  case 0: throw Failure("no todo has an id starting with '\(id)'")
  default: throw Failure("'\(id)' matches \(matches.count) todos; give more of the id")
  }
}

/// A todo as the command line shows it; its JSON form is documented in the README.
struct TodoOutput: Codable {
  var id: String
  var title: String
  var completed: Bool
  var priority: String
  var createdAt: Date

  init(_ todo: TodoItem) {
    id = todo.id.uuidString.lowercased()
    title = todo.title
    completed = todo.isCompleted
    priority = todo.priority.rawValue
    createdAt = todo.createdAt
  }

  var line: String {
    "\(id.prefix(8))  [\(completed ? "x" : " ")] \(title) (\(priority))"
  }
}
