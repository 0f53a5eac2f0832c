import AppFeature
import ComposableCore
import ContactsClient
import CounterFeature
import FormFeature
import NavigationFeature
import OrdersClient
import RefreshableListFeature
import SignUpClient
import TerminalUI
import TodoListFeature
import TodosClient

/// What only the terminal knows: cursors, focus, which text field is being typed into.
struct ViewState {
  var appearedTab: AppReducer.Tab?
  var spinnerFrame = 0
  var todoCursor = 0
  var orderCursor = 0
  var contactCursor = 0
  var formFocus = 0
  var editFocus = 0
  var settingsFocus = 0
  var modalButton = 0
  var editing: Field?

  /// A text field the keyboard types into.
  enum Field: Equatable {
    case newTodo, todoSearch
    case signUp(Int)
    case contact(Int)
  }
}

/// An alert or dialog over the current tab, with what each button does.
struct Modal {
  var title: String
  var message: String?
  var buttons: [(label: String, role: ButtonStateRole?, press: () -> Void)]
  var dismiss: () -> Void

  /// A modal whose buttons send their action, or dismiss when they have none.
  init<A>(
    _ title: TextState,
    _ message: TextState?,
    _ buttons: [ButtonState<A>],
    _ send: @escaping (PresentationAction<A>) -> Void
  ) {
    self.title = title.string
    self.message = message?.string
    self.buttons = buttons.map { button in
      (
        button.label.string, button.role,
        { send(button.action.action.map { .presented($0) } ?? .dismiss) }
      )
    }
    self.dismiss = { send(.dismiss) }
  }
}

@MainActor
enum Screens {
  static func modal(_ state: AppReducer.State, send: @escaping (AppReducer.Action) -> Void)
    -> Modal?
  {
    func make<A>(_ alert: AlertState<A>?, _ send: @escaping (PresentationAction<A>) -> Void)
      -> Modal?
    {
      guard let alert else { return nil }
      return Modal(alert.title, alert.message, alert.displayedButtons, send)
    }
    switch state.selectedTab {
    case .counter: return make(state.counter.alert) { send(.counter(.alert($0))) }
    case .todos: return make(state.todos.alert) { send(.todos(.alert($0))) }
    case .signUp: return make(state.signUp.alert) { send(.signUp(.alert($0))) }
    case .orders: return nil
    case .contacts:
      if case .alert(let alert)? = state.contacts.destination {
        return make(alert) { action in
          switch action {
          case .dismiss: send(.contacts(.destination(.dismiss)))
          case .presented(let alertAction):
            send(.contacts(.destination(.presented(.alert(alertAction)))))
          }
        }
      }
      if let id = state.contacts.path.ids.last,
        case .detail(let detail)? = state.contacts.path[id: id],
        let dialog = detail.confirmationDialog
      {
        return Modal(dialog.title, dialog.message, dialog.buttons) {
          send(.contacts(.path(.element(id: id, action: .detail(.confirmationDialog($0))))))
        }
      }
      return nil
    }
  }
}

/// Draws the app's state on a fixed-size screen.
@MainActor
enum Renderer {
  static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Whether the visible tab shows a spinner, which needs redrawing as it turns.
  static func isBusy(_ state: AppReducer.State) -> Bool {
    switch state.selectedTab {
    case .counter: state.counter.isLoadingFact || state.counter.isTimerRunning
    case .todos: state.todos.isLoading
    case .orders: state.orders.inFlight != nil
    case .signUp: state.signUp.isSubmitting
    case .contacts: state.contacts.isLoading
    }
  }

  /// Draws the visible tab from its scoped store. Called inside observation tracking, it reads
  /// only what is on screen, so a change anywhere else does not ask for a redraw.
  static func render(_ store: StoreOf<AppReducer>, view: ViewState, width: Int, height: Int)
    -> Screen
  {
    var screen = Screen(width: width, height: height)
    guard width >= 30, height >= 8 else {
      screen.put("Terminal too small (\(width)×\(height)).", row: 0)
      screen.put("Need 30×8; q quits.", row: 1)
      return screen
    }
    let selectedTab = store.selectedTab
    let tabs = AppReducer.Tab.allCases.enumerated().map { index, tab in
      let name = "\(index + 1) \(title(tab))"
      return tab == selectedTab ? "[\(name)]" : " \(name) "
    }
    var header = tabs.joined(separator: " ")
    if let email = store.accountEmail { header += "  ✉ \(email)" }
    screen.put(header, row: 0, style: .inverse)
    if let toast = store.toast { screen.put("✓ \(toast)", row: 1, style: .bold) }
    let spin = spinner[view.spinnerFrame % spinner.count]
    var body: [(String, Screen.Style?)] = []
    var help: String
    switch selectedTab {
    case .counter:
      (body, help) = counter(store.scope(state: \.counter, action: \.counter), spin: spin)
    case .todos:
      (body, help) = todos(store.scope(state: \.todos, action: \.todos), view: view, spin: spin)
    case .orders:
      (body, help) = orders(
        store.scope(state: \.orders, action: \.orders), view: view, spin: spin, height: height - 5)
    case .signUp:
      (body, help) = signUp(store.scope(state: \.signUp, action: \.signUp), view: view, spin: spin)
    case .contacts:
      (body, help) = contacts(
        store.scope(state: \.contacts, action: \.contacts), view: view, spin: spin)
    }
    for (offset, line) in body.prefix(height - 3).enumerated() {
      screen.put(line.0, row: 2 + offset, style: line.1)
    }
    if let modal = Screens.modal(store.state, send: { _ in }) {
      var content: [String] = []
      if let message = modal.message { content.append(message) }
      content.append("")
      content.append(
        modal.buttons.enumerated().map { index, button in
          let label = button.role == .destructive ? "! \(button.label)" : button.label
          return index == view.modalButton % max(modal.buttons.count, 1)
            ? "[\(label)]" : " \(label) "
        }.joined(separator: " ")
      )
      screen.box(content, title: modal.title)
      help = "←/→ choose  Enter press  Esc dismiss"
    }
    screen.put(help, row: height - 1, style: .dim)
    return screen
  }

  static func title(_ tab: AppReducer.Tab) -> String {
    switch tab {
    case .counter: "Counter"
    case .todos: "Todos"
    case .orders: "Orders"
    case .signUp: "Sign-up"
    case .contacts: "Contacts"
    }
  }

  static func counter(_ counter: StoreOf<Counter>, spin: String) -> (
    [(String, Screen.Style?)], String
  ) {
    var body: [(String, Screen.Style?)] = [("Count: \(counter.count)", .bold)]
    let timer = counter.isTimerRunning ? "running \(spin)" : "stopped"
    body.append(("Timer: \(timer), every \(counter.timerInterval.rawValue) s", nil))
    if counter.isLoadingFact {
      body.append(("\(spin) Fetching a fact about \(counter.count)…", .dim))
    }
    return (body, "+/- count  r reset  t timer  i interval  f fact  1-5 tabs  q quit")
  }

  static func todos(_ list: StoreOf<TodoList>, view: ViewState, spin: String) -> (
    [(String, Screen.Style?)], String
  ) {
    var body: [(String, Screen.Style?)] = []
    let search =
      list.searchQuery.isEmpty
      ? "" : "  search: \(list.searchQuery)\(view.editing == .todoSearch ? "▏" : "")"
    body.append(("Filter: \(list.filter.rawValue)  \(list.activeCount) left\(search)", .bold))
    if view.editing == .todoSearch && list.searchQuery.isEmpty { body.append(("Search: ▏", nil)) }
    if view.editing == .newTodo {
      body.append(("New (\(list.newPriority.rawValue)): \(list.newTitle)▏", .inverse))
    }
    if let error = list.newTitleError { body.append((error, .error)) }
    if list.isLoading { body.append(("\(spin) Loading…", .dim)) }
    let visible = list.visibleTodos
    if visible.isEmpty && !list.isLoading { body.append(("No todos. Press a to add one.", .dim)) }
    for (index, todo) in visible.enumerated() {
      let mark = todo.isCompleted ? "[x]" : "[ ]"
      let line = "\(mark) \(todo.title)  (\(todo.priority.rawValue))"
      body.append((line, index == view.todoCursor ? .inverse : nil))
    }
    let help =
      view.editing != nil
      ? "type text  Enter done  Esc cancel"
      : "a add  space toggle  p priority  d delete  c clear done  f filter  / search  J/K move  q quit"
    return (body, help)
  }

  static func orders(_ list: StoreOf<RefreshableList>, view: ViewState, spin: String, height: Int)
    -> (
      [(String, Screen.Style?)], String
    )
  {
    var body: [(String, Screen.Style?)] = []
    var status = "Filter: \(list.selectedFilter.name)"
    if list.simulateError { status += "  [simulating errors]" }
    if list.simulateEmpty { status += "  [simulating empty]" }
    if list.isStale { status += "  (cached, refreshing…)" }
    body.append((status, .bold))
    if let banner = list.refreshErrorInfo {
      body.append(("⚠ \(banner.description)  R retries", .error))
    }
    if let retry = list.pendingRetry {
      body.append(
        (
          "\(spin) Retry \(retry.attempt) of 3 in \(retry.delay.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))…",
          .dim
        ))
    }
    switch list.pageState {
    case .idle:
      body.append(("Nothing loaded yet.", .dim))
    case .loading(let kind):
      body.append(("\(spin) \(kind == .refresh ? "Refreshing" : "Loading")…", .dim))
    case .failed(_, let info):
      body.append(("✗ \(info.description)", .error))
      body.append(("Press R to retry.", nil))
    case .loaded:
      break
    }
    let orders = list.visibleOrders
    if case .loaded = list.pageState, orders.isEmpty { body.append(("No orders.", .dim)) }
    let window = max(height - body.count - 1, 1)
    let start = min(max(view.orderCursor - window + 1, 0), max(orders.count - window, 0))
    for (index, order) in orders.enumerated().dropFirst(start).prefix(window) {
      let total = String(format: "%d.%02d", order.totalCents / 100, order.totalCents % 100)
      let line =
        "\(order.number)  \(order.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(total.leftPadded(to: 8))  \(order.customer)"
      body.append((line, index == view.orderCursor ? .inverse : nil))
    }
    if case .loaded(_, let footer) = list.pageState {
      switch footer {
      case .idle: body.append(("↓ more: press n", .dim))
      case .loading: body.append(("\(spin) Loading more…", .dim))
      case .noMore: body.append(("— end of list —", .dim))
      case .failed(let info): body.append(("✗ \(info.description)  R retries", .error))
      }
    }
    if list.showLoadingOverlay, list.pageState.content == nil {
      body.append(("\(spin) Please wait…", .inverse))
    }
    return (body, "↑/↓ move  n more  r refresh  f filter  e errors  m empty  R retry  q quit")
  }

  static let formFields = ["Email", "Password", "Confirm password", "Accept the terms", "Submit"]

  static func signUp(_ form: StoreOf<SignUpForm>, view: ViewState, spin: String) -> (
    [(String, Screen.Style?)], String
  ) {
    var body: [(String, Screen.Style?)] = [("Create an account", .bold)]
    let values = [
      form.email, String(repeating: "•", count: form.password.count),
      String(repeating: "•", count: form.confirmPassword.count),
    ]
    let fields: [SignUpField] = [.email, .password, .confirmPassword, .acceptTerms]
    for (index, name) in formFields.enumerated() {
      let focused = index == view.formFocus % formFields.count
      let cursor = focused && view.editing == .signUp(index) ? "▏" : ""
      let line: String
      switch index {
      case 0...2: line = "\(name): \(values[index])\(cursor)"
      case 3: line = "[\(form.acceptTerms ? "x" : " ")] \(name)"
      default:
        line =
          form.isSubmitting
          ? "\(spin) Submitting…"
          : (form.canSubmit ? "< Submit >" : "< Submit > (fix the fields first)")
      }
      body.append(((focused ? "› " : "  ") + line, focused ? .inverse : nil))
      if index < fields.count, let error = form.withState({ $0.error(for: fields[index]) }) {
        body.append(("    \(error)", .error))
      }
    }
    let help =
      view.editing != nil
      ? "type text  Enter/Esc done"
      : "↑/↓ field  Enter edit/submit  space toggle  1-5 tabs  q quit"
    return (body, help)
  }

  static let contactFields = ["Name", "Email", "Phone", "Notes", "Save"]

  static func contacts(_ book: StoreOf<ContactsBook>, view: ViewState, spin: String) -> (
    [(String, Screen.Style?)], String
  ) {
    var body: [(String, Screen.Style?)] = []
    if case .add(let form)? = book.destination {
      body.append(("New contact", .bold))
      body += editForm(form, view: view)
      return (body, "↑/↓ field  Enter edit/save  Esc cancel")
    }
    let crumbs =
      ["Contacts"]
      + book.path.map { element -> String in
        switch element {
        case .detail(let detail): detail.contact.name
        case .edit: "Edit"
        case .settings: "Settings"
        }
      }
    body.append((crumbs.joined(separator: " › "), .bold))
    switch book.path.last {
    case nil:
      if book.isLoading { body.append(("\(spin) Loading…", .dim)) }
      let contacts = book.sortedContacts
      if contacts.isEmpty && !book.isLoading {
        body.append(("No contacts. Press a to add one.", .dim))
      }
      for (index, contact) in contacts.enumerated() {
        let email = book.settings.showEmails && !contact.email.isEmpty ? "  <\(contact.email)>" : ""
        body.append(
          (
            "\(contact.isFavorite ? "★" : " ") \(contact.name)\(email)",
            index == view.contactCursor ? .inverse : nil
          ))
      }
      return (body, "↑/↓ move  Enter open  a add  s settings  1-5 tabs  q quit")
    case .detail(let detail)?:
      let contact = detail.contact
      body.append(("\(contact.isFavorite ? "★ " : "")\(contact.name)", nil))
      if !contact.email.isEmpty { body.append(("Email: \(contact.email)", nil)) }
      if !contact.phone.isEmpty { body.append(("Phone: \(contact.phone)", nil)) }
      if !contact.notes.isEmpty { body.append(("Notes: \(contact.notes)", nil)) }
      return (body, "e edit  f favourite  d delete  Esc back  H root  q quit")
    case .edit(let form)?:
      body += editForm(form, view: view)
      return (body, "↑/↓ field  Enter edit/save  Esc cancel  H root")
    case .settings(let settings)?:
      let rows = [
        "[\(settings.settings.favoritesFirst ? "x" : " ")] Favourites first",
        "[\(settings.settings.showEmails ? "x" : " ")] Show emails",
      ]
      for (index, row) in rows.enumerated() {
        body.append((row, index == view.settingsFocus % rows.count ? .inverse : nil))
      }
      return (body, "↑/↓ move  space toggle  Esc back")
    }
  }

  static func editForm(_ form: ContactEdit.State, view: ViewState) -> [(String, Screen.Style?)] {
    let values = [form.contact.name, form.contact.email, form.contact.phone, form.contact.notes]
    let errors = [form.nameError, form.emailError, nil, nil]
    var rows: [(String, Screen.Style?)] = []
    for (index, name) in contactFields.enumerated() {
      let focused = index == view.editFocus % contactFields.count
      let cursor = focused && view.editing == .contact(index) ? "▏" : ""
      let line = index < values.count ? "\(name): \(values[index])\(cursor)" : "< Save >"
      rows.append(((focused ? "› " : "  ") + line, focused ? .inverse : nil))
      if index < errors.count, let error = errors[index] { rows.append(("    \(error)", .error)) }
    }
    return rows
  }
}
