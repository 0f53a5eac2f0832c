import ComposableCore
import TerminalUI
import TodoListFeature
import TodosClient

/// The todos tab: the filtered list with a cursor, and its new-todo and search fields.
@MainActor
enum TodosScreen {
  /// Where the cursor is.
  struct ViewState {
    var cursor = 0
  }

  static func render(_ list: StoreOf<TodoList>, view: AppViewState, spin: String) -> ScreenBody {
    var lines: [Line] = []
    let search =
      list.searchQuery.isEmpty
      ? "" : "  search: \(list.searchQuery)\(view.editing == .todoSearch ? "▏" : "")"
    lines.append(("Filter: \(list.filter.rawValue)  \(list.activeCount) left\(search)", .bold))
    if view.editing == .todoSearch && list.searchQuery.isEmpty { lines.append(("Search: ▏", nil)) }
    if view.editing == .newTodo {
      lines.append(("New (\(list.newPriority.rawValue)): \(list.newTitle)▏", .inverse))
    }
    if let error = list.newTitleError { lines.append((error, .error)) }
    if list.isLoading { lines.append(("\(spin) Loading…", .dim)) }
    let visible = list.visibleTodos
    if visible.isEmpty && !list.isLoading { lines.append(("No todos. Press a to add one.", .dim)) }
    for (index, todo) in visible.enumerated() {
      let mark = todo.isCompleted ? "[x]" : "[ ]"
      let line = "\(mark) \(todo.title)  (\(todo.priority.rawValue))"
      lines.append((line, index == view.todos.cursor ? .inverse : nil))
    }
    let help =
      view.editing != nil
      ? "type text  Enter done  Esc cancel"
      : "a add  space toggle  p priority  d delete  c clear done  f filter  / search  J/K move  q quit"
    return (lines, help)
  }

  static func handle(_ key: KeyEvent, list: StoreOf<TodoList>, view: inout AppViewState) {
    let visible = list.visibleTodos
    let current = visible.indices.contains(view.todos.cursor) ? visible[view.todos.cursor] : nil
    switch key {
    case .up: view.todos.cursor = max(view.todos.cursor - 1, 0)
    case .down: view.todos.cursor = min(view.todos.cursor + 1, max(visible.count - 1, 0))
    case .character("a"): view.editing = .newTodo
    case .character("/"): view.editing = .todoSearch
    case .character(" "), .enter:
      if let current {
        list.send(.todos(.element(id: current.id, action: .toggleCompletionButtonTapped)))
      }
    case .character("p"):
      if let current {
        let priority = next(after: current.priority)
        list.send(.todos(.element(id: current.id, action: .priorityChanged(priority))))
      }
    case .character("d"):
      if let current { list.send(.deleteButtonTapped(id: current.id)) }
    case .character("c"): list.send(.clearCompletedButtonTapped)
    case .character("f"): list.send(.filterSelected(next(after: list.filter)))
    case .character("J"), .character("K"):
      guard let current, let index = list.todos.index(id: current.id) else { break }
      let down = key == .character("J")
      guard down ? index < list.todos.count - 1 : index > 0 else { break }
      list.send(.move(fromOffsets: [index], toOffset: down ? index + 2 : index - 1))
      view.todos.cursor += down ? 1 : -1
    default: break
    }
    view.todos.cursor = min(view.todos.cursor, max(list.visibleTodos.count - 1, 0))
  }

  /// Typing into the new-todo or search field.
  static func type(_ key: KeyEvent, list: StoreOf<TodoList>, view: inout AppViewState) {
    switch view.editing {
    case .newTodo:
      if let text = key.edit(list.newTitle) { list.send(.set(\.newTitle, text)) }
      if key == .enter {
        // Without a title the field stays open, to show the "needs a title" message.
        let hasTitle = !list.newTitle.trimmingCharacters(in: .whitespaces).isEmpty
        list.send(.addButtonTapped)
        if hasTitle { view.editing = nil }
      }
      if key == .escape {
        list.send(.set(\.newTitle, ""))
        view.editing = nil
      }
    case .todoSearch:
      if let text = key.edit(list.searchQuery) { list.send(.set(\.searchQuery, text)) }
      if key == .enter || key == .escape { view.editing = nil }
    default:
      break
    }
  }
}
