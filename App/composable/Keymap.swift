import AppFeature
import ComposableCore
import ContactsClient
import CounterFeature
import FormFeature
import NavigationFeature
import OrdersClient
import RefreshableListFeature
import TerminalUI
import TodoListFeature
import TodosClient

/// Turns keys into actions, tab by tab. Text fields type into the store's state, so what is on
/// screen is always the state.
@MainActor
enum Keymap {
  enum Outcome { case handled, quit }

  static func handle(_ key: KeyEvent, store: StoreOf<AppReducer>, view: inout ViewState) -> Outcome
  {
    if key == .control("c") { return .quit }
    let send = { (action: AppReducer.Action) in _ = store.send(action) }
    let state = store.state

    if let modal = Screens.modal(state, send: send) {
      let count = max(modal.buttons.count, 1)
      switch key {
      case .left, .backTab: view.modalButton = (view.modalButton + count - 1) % count
      case .right, .tab: view.modalButton = (view.modalButton + 1) % count
      case .enter:
        modal.buttons[view.modalButton % count].press()
        view.modalButton = 0
      case .escape:
        modal.dismiss()
        view.modalButton = 0
      default: break
      }
      return .handled
    }

    if let field = view.editing {
      type(key, into: field, state: state, send: send, view: &view)
      return .handled
    }

    switch key {
    case .character("q"): return .quit
    case .character(let digit) where ("1"..."5").contains(digit):
      send(.tabSelected(AppReducer.Tab.allCases[Int(String(digit))! - 1]))
      return .handled
    default: break
    }

    switch state.selectedTab {
    case .counter:
      switch key {
      case .character("+"), .character("="), .up: send(.counter(.incrementButtonTapped))
      case .character("-"), .down: send(.counter(.decrementButtonTapped))
      case .character("r"): send(.counter(.resetButtonTapped))
      case .character("t"): send(.counter(.toggleTimerButtonTapped))
      case .character("i"):
        let all = Counter.TimerInterval.allCases
        let next = all[(all.firstIndex(of: state.counter.timerInterval)! + 1) % all.count]
        send(.counter(.timerIntervalSelected(next)))
      case .character("f"): send(.counter(.factButtonTapped))
      default: break
      }

    case .todos:
      let visible = state.todos.visibleTodos
      let current = visible.indices.contains(view.todoCursor) ? visible[view.todoCursor] : nil
      switch key {
      case .up: view.todoCursor = max(view.todoCursor - 1, 0)
      case .down: view.todoCursor = min(view.todoCursor + 1, max(visible.count - 1, 0))
      case .character("a"): view.editing = .newTodo
      case .character("/"): view.editing = .todoSearch
      case .character(" "), .enter:
        if let current {
          send(.todos(.todos(.element(id: current.id, action: .toggleCompletionButtonTapped))))
        }
      case .character("p"):
        if let current {
          let all = TodoItem.Priority.allCases
          let next = all[(all.firstIndex(of: current.priority)! + 1) % all.count]
          send(.todos(.todos(.element(id: current.id, action: .priorityChanged(next)))))
        }
      case .character("d"):
        if let current { send(.todos(.deleteButtonTapped(id: current.id))) }
      case .character("c"): send(.todos(.clearCompletedButtonTapped))
      case .character("f"):
        let all = TodoList.Filter.allCases
        send(
          .todos(.filterSelected(all[(all.firstIndex(of: state.todos.filter)! + 1) % all.count])))
      case .character("J"), .character("K"):
        guard let current, let index = state.todos.todos.index(id: current.id) else { break }
        let down = key == .character("J")
        guard down ? index < state.todos.todos.count - 1 : index > 0 else { break }
        send(.todos(.move(fromOffsets: [index], toOffset: down ? index + 2 : index - 1)))
        view.todoCursor += down ? 1 : -1
      default: break
      }
      view.todoCursor = min(view.todoCursor, max(store.state.todos.visibleTodos.count - 1, 0))

    case .orders:
      let count = state.orders.visibleOrders.count
      switch key {
      case .up: view.orderCursor = max(view.orderCursor - 1, 0)
      case .down:
        if view.orderCursor >= count - 1 { send(.orders(.loadMore)) } else { view.orderCursor += 1 }
      case .character("n"): send(.orders(.loadMore))
      case .character("r"): send(.orders(.pullToRefresh))
      case .character("R"): send(.orders(.retry))
      case .character("e"): send(.orders(.toggleErrorSimulation))
      case .character("m"): send(.orders(.toggleEmptySimulation))
      case .character("f"):
        let all = OrderFilter.allCases
        send(
          .orders(
            .selectFilter(
              all[((all.firstIndex(of: state.orders.selectedFilter) ?? 0) + 1) % all.count])))
        view.orderCursor = 0
      default: break
      }

    case .signUp:
      let focus = view.formFocus % Renderer.formFields.count
      switch key {
      case .up, .backTab:
        view.formFocus = (focus + Renderer.formFields.count - 1) % Renderer.formFields.count
      case .down, .tab: view.formFocus = (focus + 1) % Renderer.formFields.count
      case .character(" ") where focus == 3:
        send(.signUp(.view(.set(\.acceptTerms, !state.signUp.acceptTerms))))
      case .enter where focus <= 2: view.editing = .signUp(focus)
      case .enter where focus == 3:
        send(.signUp(.view(.set(\.acceptTerms, !state.signUp.acceptTerms))))
      case .enter: send(.signUp(.view(.submitButtonTapped)))
      default: break
      }

    case .contacts:
      contacts(key, state: state.contacts, send: send, view: &view)
    }
    return .handled
  }

  static func contacts(
    _ key: KeyEvent,
    state: ContactsBook.State,
    send: @escaping (AppReducer.Action) -> Void,
    view: inout ViewState
  ) {
    let sendBook = { (action: ContactsBook.Action) in send(.contacts(action)) }
    if case .add? = state.destination {
      editForm(key, view: &view) { sendBook(.destination(.presented(.add($0)))) }
      return
    }
    guard let top = state.path.ids.last else {
      let contacts = state.sortedContacts
      switch key {
      case .up: view.contactCursor = max(view.contactCursor - 1, 0)
      case .down: view.contactCursor = min(view.contactCursor + 1, max(contacts.count - 1, 0))
      case .enter:
        if contacts.indices.contains(view.contactCursor) {
          sendBook(.contactTapped(id: contacts[view.contactCursor].id))
        }
      case .character("a"):
        view.editFocus = 0
        sendBook(.addButtonTapped)
      case .character("s"): sendBook(.settingsButtonTapped)
      default: break
      }
      return
    }
    if key == .character("H") { return sendBook(.popToRootButtonTapped) }
    switch state.path[id: top] {
    case .detail?:
      let sendDetail = { (action: ContactDetail.Action) in
        sendBook(.path(.element(id: top, action: .detail(action))))
      }
      switch key {
      case .character("e"):
        view.editFocus = 0
        sendDetail(.editButtonTapped)
      case .character("f"): sendDetail(.favoriteButtonTapped)
      case .character("d"): sendDetail(.deleteButtonTapped)
      case .escape, .left: sendBook(.path(.popFrom(id: top)))
      default: break
      }
    case .edit?:
      editForm(key, view: &view) { sendBook(.path(.element(id: top, action: .edit($0)))) }
    case .settings(let settings)?:
      switch key {
      case .up, .down: view.settingsFocus = (view.settingsFocus + 1) % 2
      case .character(" "), .enter:
        let path: WritableKeyPath<ContactSettings.State, Bool> =
          view.settingsFocus % 2 == 0 ? \.settings.favoritesFirst : \.settings.showEmails
        sendBook(.path(.element(id: top, action: .settings(.set(path, !settings[keyPath: path])))))
      case .escape, .left: sendBook(.path(.popFrom(id: top)))
      default: break
      }
    case nil:
      break
    }
  }

  static func editForm(_ key: KeyEvent, view: inout ViewState, send: (ContactEdit.Action) -> Void) {
    let count = Renderer.contactFields.count
    let focus = view.editFocus % count
    switch key {
    case .up, .backTab: view.editFocus = (focus + count - 1) % count
    case .down, .tab: view.editFocus = (focus + 1) % count
    case .enter where focus < count - 1: view.editing = .contact(focus)
    case .enter: send(.view(.saveButtonTapped))
    case .escape: send(.view(.cancelButtonTapped))
    default: break
    }
  }

  /// Typing into a text field: characters append, Backspace deletes, Enter or Esc leaves.
  static func type(
    _ key: KeyEvent,
    into field: ViewState.Field,
    state: AppReducer.State,
    send: @escaping (AppReducer.Action) -> Void,
    view: inout ViewState
  ) {
    func edit(_ text: String) -> String? {
      switch key {
      case .character(let character): return text + String(character)
      case .backspace: return String(text.dropLast())
      default: return nil
      }
    }
    switch field {
    case .newTodo:
      if let text = edit(state.todos.newTitle) { send(.todos(.set(\.newTitle, text))) }
      if key == .enter {
        send(.todos(.addButtonTapped))
        if store(state: state) { view.editing = nil }
      }
      if key == .escape {
        send(.todos(.set(\.newTitle, "")))
        view.editing = nil
      }
    case .todoSearch:
      if let text = edit(state.todos.searchQuery) { send(.todos(.set(\.searchQuery, text))) }
      if key == .enter || key == .escape { view.editing = nil }
    case .signUp(let index):
      let paths: [WritableKeyPath<SignUpForm.State, String>] = [
        \.email, \.password, \.confirmPassword,
      ]
      if let text = edit(state.signUp[keyPath: paths[index]]) {
        send(.signUp(.view(.set(paths[index], text))))
      }
      if key == .enter || key == .escape { view.editing = nil }
    case .contact(let index):
      let paths: [WritableKeyPath<ContactEdit.State, String>] = [
        \.contact.name, \.contact.email, \.contact.phone, \.contact.notes,
      ]
      let current: ContactEdit.State?
      let sendEdit: (ContactEdit.Action) -> Void
      if case .add(let form)? = state.contacts.destination {
        current = form
        sendEdit = { send(.contacts(.destination(.presented(.add($0))))) }
      } else if let top = state.contacts.path.ids.last,
        case .edit(let form)? = state.contacts.path[id: top]
      {
        current = form
        sendEdit = { send(.contacts(.path(.element(id: top, action: .edit($0))))) }
      } else {
        view.editing = nil
        return
      }
      if let form = current, let text = edit(form[keyPath: paths[index]]) {
        sendEdit(.view(.set(paths[index], text)))
      }
      if key == .enter || key == .escape { view.editing = nil }
    }
  }

  /// Whether the new-todo field can close: it stays open to show a "needs a title" message.
  private static func store(state: AppReducer.State) -> Bool {
    !state.todos.newTitle.trimmingCharacters(in: .whitespaces).isEmpty
  }
}
