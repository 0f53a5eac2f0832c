import AppFeature
import ComposableCore
import TerminalUI

/// Draws the app: the tabs and the header, the visible tab's screen from its scoped store, and a
/// modal over it.
@MainActor
enum Renderer {
  static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Whether the visible tab shows a spinner, which needs redrawing as it turns.
  static func isBusy(_ state: AppReducer.State) -> Bool {
    switch state.selectedTab {
    case .counter: CounterScreen.isBusy(state.counter)
    case .todos: state.todos.isLoading
    case .orders: state.orders.inFlight != nil
    case .signUp: state.signUp.isSubmitting
    case .contacts: state.contacts.isLoading
    }
  }

  /// Draws the visible tab from its scoped store. Called inside observation tracking, it reads
  /// only what is on screen, so a change anywhere else does not ask for a redraw.
  static func render(_ store: StoreOf<AppReducer>, view: AppViewState, width: Int, height: Int)
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
    var (lines, help): ScreenBody
    switch selectedTab {
    case .counter:
      (lines, help) = CounterScreen.render(
        store.scope(state: \.counter, action: \.counter), spin: spin)
    case .todos:
      (lines, help) = TodosScreen.render(
        store.scope(state: \.todos, action: \.todos), view: view, spin: spin)
    case .orders:
      (lines, help) = OrdersScreen.render(
        store.scope(state: \.orders, action: \.orders), view: view, spin: spin,
        height: height - 5)
    case .signUp:
      (lines, help) = SignUpScreen(store: store.scope(state: \.signUp, action: \.signUp))
        .render(view: view, spin: spin)
    case .contacts:
      (lines, help) = ContactsScreen.render(
        store.scope(state: \.contacts, action: \.contacts), view: view, spin: spin)
    }
    for (offset, line) in lines.prefix(height - 3).enumerated() {
      screen.put(line.0, row: 2 + offset, style: line.1)
    }
    if let modal = Modals.modal(store.state, send: { _ in }) {
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
}

/// Turns keys into actions: a modal first, then a text field being typed into, then the keys
/// every tab shares, then the visible tab's own. Text fields type into the store's state, so
/// what is on screen is always the state.
@MainActor
enum Keymap {
  enum Outcome { case handled, quit }

  static func handle(_ key: KeyEvent, store: StoreOf<AppReducer>, view: inout AppViewState)
    -> Outcome
  {
    if key == .control("c") { return .quit }
    if let modal = Modals.modal(store.state, send: { store.send($0) }) {
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

    let todos = store.scope(state: \.todos, action: \.todos)
    let signUp = SignUpScreen(store: store.scope(state: \.signUp, action: \.signUp))
    let contacts = store.scope(state: \.contacts, action: \.contacts)
    switch view.editing {
    case .newTodo?, .todoSearch?:
      TodosScreen.type(key, list: todos, view: &view)
      return .handled
    case .signUp(let index)?:
      signUp.type(key, into: index, view: &view)
      return .handled
    case .contact(let index)?:
      ContactsScreen.type(key, into: index, book: contacts, view: &view)
      return .handled
    case nil:
      break
    }

    switch key {
    case .character("q"): return .quit
    case .character(let digit) where ("1"..."5").contains(digit):
      store.send(.tabSelected(AppReducer.Tab.allCases[Int(String(digit))! - 1]))
      return .handled
    default: break
    }

    switch store.selectedTab {
    case .counter:
      CounterScreen.handle(key, counter: store.scope(state: \.counter, action: \.counter))
    case .todos:
      TodosScreen.handle(key, list: todos, view: &view)
    case .orders:
      OrdersScreen.handle(key, list: store.scope(state: \.orders, action: \.orders), view: &view)
    case .signUp:
      signUp.handle(key, view: &view)
    case .contacts:
      ContactsScreen.handle(key, book: contacts, view: &view)
    }
    return .handled
  }
}
