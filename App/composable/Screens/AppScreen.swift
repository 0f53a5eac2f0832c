import AppFeature
import ComposableCore
import TerminalUI

/// The whole app on a terminal: the tab bar, the visible tab's screen, a modal or the key help
/// over it, and the help line. Each tab's screen owns its own state; this owns only what is
/// the app's (which modal button has focus, whether help shows, quitting).
@MainActor
final class AppScreen: TerminalProgram {
  let store: StoreOf<AppReducer>
  private let screens: [AppReducer.Tab: any TabScreen]
  private var appearedTab: AppReducer.Tab?
  private var spinnerFrame = 0
  private var modalFocus = 0
  private var modalIdentity: String?
  private var showsHelp = false
  /// Set once quitting starts: the loop goes on until the changes in flight are saved.
  private(set) var quitting: Quitting?
  /// What quitting could not finish, for the message on the way out.
  private(set) var problemsWhileQuitting: [String] = []

  static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  /// How long quitting waits for the changes still being saved.
  static let saveGrace = Duration.seconds(5)

  /// Why and until when the app is quitting.
  struct Quitting {
    var reason: TerminalEvent
    var deadline: ContinuousClock.Instant
  }

  init(store: StoreOf<AppReducer>) {
    self.store = store
    screens = [
      .counter: CounterScreen(store: store.scope(state: \.counter, action: \.counter)),
      .todos: TodosScreen(store: store.scope(state: \.todos, action: \.todos)),
      .orders: OrdersScreen(store: store.scope(state: \.orders, action: \.orders)),
      .signUp: SignUpScreen(store: store.scope(state: \.signUp, action: \.signUp)),
      .contacts: ContactsScreen(store: store.scope(state: \.contacts, action: \.contacts)),
    ]
    followModal()
  }

  private var visible: any TabScreen { screens[store.selectedTab]! }

  /// The status a process that ran this should exit with: 130 after SIGINT, 143 after SIGTERM,
  /// 129 after SIGHUP, as a shell reports a process those signals ended.
  var exitStatus: Int32 {
    switch quitting?.reason {
    case .interrupted?: 130
    case .terminated?: 143
    case .hungUp?: 129
    default: 0
    }
  }

  var tickInterval: Duration? {
    quitting != nil || visible.isBusy ? .milliseconds(120) : nil
  }

  /// Tells the visible tab it appeared, once each time it becomes the visible one.
  func appearIfNeeded() {
    guard appearedTab != store.selectedTab else { return }
    appearedTab = store.selectedTab
    visible.appear()
  }

  func update(_ event: TerminalEvent) -> TerminalStep {
    switch event {
    case .key(let key):
      if quitting != nil {
        // Asked again: quit now, without the changes still being saved.
        if key == .character("q") || key == .control("c") { return finishQuitting(now: true) }
      } else {
        handle(key)
      }
    case .tick: spinnerFrame += 1
    case .resized, .changed: break
    case .interrupted, .terminated, .hungUp, .inputEnded:
      if quitting != nil { return finishQuitting(now: true) }
      startQuitting(event)
    }
    appearIfNeeded()
    followModal()
    return quitting == nil ? .continue : finishQuitting(now: false)
  }

  private func handle(_ key: KeyEvent) {
    // Ctrl-C is a key in raw mode: it quits as `q` does. Both quit from a modal too: an alert
    // that a background change raised just before must not swallow the quit.
    if key == .control("c") || (key == .character("q") && !visible.isTyping) {
      return startQuitting(.key(key))
    }
    if showsHelp {
      showsHelp = false
      return
    }
    if let modal = Modals.modal(store.state, send: { [store] in store.send($0) }) {
      let count = max(modal.buttons.count, 1)
      switch key {
      case .left, .backTab: modalFocus = (modalFocus + count - 1) % count
      case .right, .tab: modalFocus = (modalFocus + 1) % count
      case .enter: modal.buttons[modalFocus % count].press()
      case .escape: modal.dismiss()
      default: break
      }
      return
    }
    let screen = visible
    if screen.isTyping {
      _ = screen.handle(key)
      return
    }
    if screen.handle(key) { return }
    switch key {
    case .character("?"): showsHelp = true
    case .character(let digit) where ("1"..."5").contains(digit):
      store.send(.tabSelected(AppReducer.Tab.allCases[Int(String(digit))! - 1]))
    default: break
    }
  }

  /// Puts the focus on the default button of a modal that was not showing before. Run after
  /// every event, so that drawing only reads.
  private func followModal() {
    let modal = Modals.modal(store.state, send: { _ in })
    guard modal?.identity != modalIdentity else { return }
    modalIdentity = modal?.identity
    modalFocus = modal?.defaultButton ?? 0
  }

  private func startQuitting(_ reason: TerminalEvent) {
    quitting = Quitting(reason: reason, deadline: .now + Self.saveGrace)
  }

  /// `.exit` once nothing is left to save, the grace has passed, or `now`; the changes still
  /// unsaved then, and saves that failed while waiting, are kept to be said on the way out.
  private func finishQuitting(now: Bool) -> TerminalStep {
    guard let quitting else { return .exit }
    let unsaved = store.state.unsavedChangeCount
    guard now || unsaved == 0 || ContinuousClock.now >= quitting.deadline else { return .continue }
    // A failed save undoes the change and says so in an alert, which goes with the screen: an
    // alert of the todos or contacts still up is said again on the way out. (Whether it came
    // before or after the quit key is a race between the key and the save, so both are said.)
    if let alert = store.state.todos.alert { problemsWhileQuitting.append(Self.sentence(alert)) }
    if let alert = store.state.contacts.alert {
      problemsWhileQuitting.append(Self.sentence(alert))
    }
    if unsaved > 0 {
      problemsWhileQuitting.append(
        "\(unsaved) change\(unsaved == 1 ? " was" : "s were") still being saved when the app "
          + "quit, and may not have been saved.")
    }
    return .exit
  }

  private static func sentence<Action>(_ alert: AlertState<Action>) -> String {
    [alert.title.string, alert.message?.string].compactMap { $0 }.joined(separator: ": ")
  }

  // MARK: Drawing

  func draw(into screen: inout Screen) {
    let (width, height) = (screen.width, screen.height)
    guard width >= 30, height >= 8 else {
      screen.put("Terminal too small (\(width)×\(height)).", row: 0)
      screen.put("Need 30×8; q quits.", row: 1)
      return
    }
    let selectedTab = store.selectedTab
    let tabs = AppReducer.Tab.allCases.enumerated().map { index, tab in
      let name = "\(index + 1) \(Self.title(tab))"
      return tab == selectedTab ? "[\(name)]" : " \(name) "
    }
    var header = tabs.joined(separator: " ")
    if let email = store.accountEmail { header += "  ✉ \(email)" }
    screen.put(header, row: 0, style: .inverse)
    if let toast = store.toast { screen.put("✓ \(toast)", row: 1, style: .bold) }
    let tab = visible
    let frame = Frame(
      spin: Self.spinner[spinnerFrame % Self.spinner.count], height: height - 5, now: .now)
    let body = tab.body(frame)
    for (offset, line) in body.lines.prefix(height - 3).enumerated() {
      screen.put(line, row: 2 + offset)
    }
    var footer = footer(hints: body.hints, typing: tab.isTyping, width: width)
    if let quitting {
      drawQuitting(quitting, on: &screen)
      footer = "q quits now, without waiting"
    } else if let modal = Modals.modal(store.state, send: { _ in }) {
      var content: [String] = []
      if let message = modal.message { content.append(message) }
      content.append("")
      content.append(
        modal.buttons.enumerated().map { index, button in
          let label = button.role == .destructive ? "! \(button.label)" : button.label
          return index == modalFocus ? "[\(label)]" : " \(label) "
        }.joined(separator: " ")
      )
      screen.box(content, title: modal.title)
      footer = "←/→ choose  Enter press  Esc dismiss"
    } else if showsHelp {
      let keys =
        tab.keys + [
          KeyHelp("1-5", "switch tabs"), KeyHelp("?", "these keys"),
          KeyHelp("q or Ctrl-C", "quit, once changes are saved"),
        ]
      let column = keys.map { TerminalText.columns($0.key) }.max() ?? 0
      screen.box(
        keys.map { TerminalText.padded($0.key, to: column) + "  " + $0.meaning },
        title: "Keys: \(Self.title(selectedTab))")
      footer = "any key closes"
    }
    screen.put(footer, row: height - 1, style: .dim)
  }

  /// The help line: the screen's hints, cut to leave room for the keys every tab has. While a
  /// field is typed into, `q` and `?` type, so they are not offered.
  private func footer(hints: String, typing: Bool, width: Int) -> String {
    guard !typing else { return hints }
    let always = "  ? keys  q quit"
    return TerminalText.truncated(hints, to: width - TerminalText.columns(always)) + always
  }

  private func drawQuitting(_ quitting: Quitting, on screen: inout Screen) {
    let unsaved = store.state.unsavedChangeCount
    let left = max(quitting.deadline - .now, .zero).components.seconds + 1
    screen.box(
      [
        "Saving \(unsaved) change\(unsaved == 1 ? "" : "s") before quitting…",
        "Waiting up to \(left) s more (another program may hold the file).",
        "Press q to quit now; unsaved changes may be lost.",
      ], title: "Quitting")
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
