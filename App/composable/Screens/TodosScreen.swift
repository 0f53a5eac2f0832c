import ComposableCore
import TerminalUI
import TodoListFeature
import TodosClient

/// The todos tab: the filtered list with a cursor, and its new-todo and search fields. Which
/// field is open is the list's own state (`focus`): the feature decides when an add closes it.
@MainActor
final class TodosScreen: TabScreen {
  let store: StoreOf<TodoList>
  private var cursor = 0

  init(store: StoreOf<TodoList>) {
    self.store = store
  }

  var isTyping: Bool { store.focus != nil }
  var isBusy: Bool { store.isLoading }

  func appear() {
    store.send(.onAppear)
  }

  func body(_ frame: Frame) -> ScreenBody {
    var lines: [Line] = []
    let typing = store.focus
    let search =
      store.searchQuery.isEmpty
      ? "" : "  search: \(store.searchQuery)\(typing == .search ? "▏" : "")"
    lines.append(
      Line("Filter: \(store.filter.rawValue)  \(store.activeCount) left\(search)", .bold))
    if typing == .search && store.searchQuery.isEmpty { lines.append(Line("Search: ▏")) }
    if typing == .newTitle {
      lines.append(Line("New (\(store.newPriority.rawValue)): \(store.newTitle)▏", .inverse))
    }
    if let error = store.newTitleError { lines.append(Line(error, .error)) }
    if store.isLoading { lines.append(Line("\(frame.spin) Loading…", .dim)) }
    let visible = store.visibleTodos
    if visible.isEmpty && !store.isLoading {
      lines.append(Line("No todos. Press a to add one.", .dim))
    }
    let cursor = clamped(cursor, count: visible.count)
    for (index, todo) in visible.enumerated() {
      let mark = todo.isCompleted ? "[x]" : "[ ]"
      lines.append(
        .item("\(mark) \(todo.title)  (\(todo.priority.rawValue))", selected: index == cursor))
    }
    let hints =
      typing != nil
      ? "type text  Enter done  Esc cancel"
      : "a add  space toggle  p priority  d delete  c clear done  f filter  / search  J/K move"
    return ScreenBody(lines: lines, hints: hints)
  }

  let keys = [
    KeyHelp("↑/↓", "move the cursor"), KeyHelp("a", "add a todo"),
    KeyHelp("space or Enter", "check or uncheck"), KeyHelp("p", "change the priority"),
    KeyHelp("d", "delete"), KeyHelp("c", "clear the done todos"),
    KeyHelp("f", "change the filter"), KeyHelp("/", "search"),
    KeyHelp("J/K", "move the todo down or up"),
  ]

  func handle(_ key: KeyEvent) -> Bool {
    switch store.focus {
    case .newTitle?:
      typeTitle(key)
      return true
    case .search?:
      if let text = key.edit(store.searchQuery) { store.send(.set(\.searchQuery, text)) }
      if key == .enter || key == .escape { store.send(.set(\.focus, nil)) }
      return true
    case nil:
      break
    }
    let visible = store.visibleTodos
    cursor = clamped(cursor, count: visible.count)
    let current = visible.indices.contains(cursor) ? visible[cursor] : nil
    switch key {
    case .up: cursor = max(cursor - 1, 0)
    case .down: cursor = clamped(cursor + 1, count: visible.count)
    case .character("a"): store.send(.set(\.focus, .newTitle))
    case .character("/"): store.send(.set(\.focus, .search))
    case .character(" "), .enter:
      if let current {
        store.send(.todos(.element(id: current.id, action: .toggleCompletionButtonTapped)))
      }
    case .character("p"):
      if let current {
        let priority = next(after: current.priority)
        store.send(.todos(.element(id: current.id, action: .priorityChanged(priority))))
      }
    case .character("d"):
      if let current { store.send(.deleteButtonTapped(id: current.id)) }
    case .character("c"): store.send(.clearCompletedButtonTapped)
    case .character("f"): store.send(.filterSelected(next(after: store.filter)))
    case .character("J"), .character("K"):
      guard let current, let index = store.todos.index(id: current.id) else { break }
      let down = key == .character("J")
      guard down ? index < store.todos.count - 1 : index > 0 else { break }
      store.send(.move(fromOffsets: [index], toOffset: down ? index + 2 : index - 1))
      cursor += down ? 1 : -1
    default: return false
    }
    // Left as it is after a delete: every read clamps it (above, and in `body`).
    return true
  }

  /// Typing into the new-todo field. Enter asks the list to add; the list closes the field when
  /// it accepts the title, and keeps it open with a message when it does not.
  private func typeTitle(_ key: KeyEvent) {
    if let text = key.edit(store.newTitle) { store.send(.set(\.newTitle, text)) }
    switch key {
    case .enter: store.send(.addButtonTapped)
    case .escape:
      store.send(.set(\.newTitle, ""))
      store.send(.set(\.focus, nil))
    default: break
    }
  }
}
