import AppFeature
import ComposableCore
import ContactsClient
import CounterFeature
import Foundation
import NavigationFeature
import OrdersClient
import RefreshableListFeature
import SnapshotTesting
import TerminalUI
import Testing
import TodoListFeature
import TodosClient

@testable import composable

/// Every tab as a person sees it, with text from outside that tries to break the screen: wide
/// CJK and emoji, combining marks, tabs, line breaks and escape sequences in titles, names and
/// server messages. Drawn at 80×24 and 40×10, with colour off (the text) and on (the bytes,
/// with Escape shown as `␛`), and compared with the committed snapshots.
@MainActor
struct RenderSnapshotTests {
  static let day = Date(timeIntervalSince1970: 1_700_000_000)
  /// Strings that have broken terminal apps: each is on some screen below.
  static let hostile = [
    "日本語のタスク", "dragon 🐉 family 👨‍👩‍👧", "cafe\u{301} and n\u{303}", "tab\there",
    "first\nsecond", "\u{1B}[2J\u{1B}[Hgotcha", "\u{202E}reversed", "\u{301}lone mark",
  ]

  static var states: [(String, AppReducer.State)] {
    var page = try! DemoOrders.page(for: PageRequest(page: 0))
    page.items[0].customer = "李小龍 🐉\u{1B}[31m"
    page.items[1].customer = "Zoë\nNewline"
    var orders = RefreshableList.State(
      pageState: .loaded(RefreshableList.OrderList(page), .idle),
      simulation: Simulation(failure: true))
    orders.refreshErrorInfo = ErrorInfo(
      type: .serverError, description: "Server said: \u{1B}]0;pwned\u{07}bad\tgateway 日本")
    var counter = AppReducer.State(
      selectedTab: .counter,
      counter: Counter.State(count: 42, isTimerRunning: false, timerInterval: .twoSeconds))
    counter.counter.alert = AlertState {
      TextState("Fact about 42")
    } message: {
      TextState(
        "42 is the answer 🐉 to the ultimate question of life, the universe and everything;"
          + " said by a server that sent \u{1B}[2J and a\nline break.")
    }
    var signUp = AppReducer.State(selectedTab: .signUp)
    signUp.signUp.email = "李@例え.jp\u{1B}[K"
    return [
      ("counter", counter),
      (
        "todos",
        AppReducer.State(
          selectedTab: .todos,
          todos: TodoList.State(
            todos: IdentifiedArray(
              uniqueElements: hostile.enumerated().map { index, title in
                TodoItem(
                  id: UUID(index), title: title, isCompleted: index == 1,
                  priority: .allCases[index % 3], createdAt: day)
              }),
            hasLoaded: true
          )
        )
      ),
      ("orders", AppReducer.State(selectedTab: .orders, orders: orders)),
      ("signup", signUp),
      (
        "contacts",
        AppReducer.State(
          selectedTab: .contacts,
          contacts: ContactsBook.State(
            contacts: [
              Contact(
                id: UUID(0), name: "李小龍 🐉", email: "lee@example.com", isFavorite: true),
              Contact(id: UUID(1), name: "Ada\nLovelace", email: "\u{1B}[31mada@example.com"),
              Contact(id: UUID(2), name: "e\u{301}\u{202E}evil", phone: "+44\t20"),
            ],
            hasLoaded: true
          )
        )
      ),
    ]
  }

  func draw(_ state: AppReducer.State, width: Int, height: Int) -> Screen {
    var screen = Screen(width: width, height: height)
    AppScreen(store: Store(initialState: state) { EmptyReducer() }).draw(into: &screen)
    return screen
  }

  /// The bytes a colour terminal gets, one row a line, Escape made visible.
  static func visible(_ ansi: String) -> String {
    ansi.replacing("\u{1B}", with: "␛").replacing("\r\n", with: "\n")
  }

  @Test(arguments: [(80, 24), (40, 10)])
  func everyTab(width: Int, height: Int) {
    for (name, state) in Self.states {
      let screen = draw(state, width: width, height: height)
      // Nothing can move the cursor or spill over the edge: each row fits its columns.
      for line in screen.lines {
        #expect(TerminalText.columns(line) <= width, "\(name): \(line)")
        #expect(TerminalText.sanitized(line) == line, "\(name): \(line)")
      }
      assertSnapshot(of: screen.text, as: .lines, named: "\(name)-\(width)x\(height)")
      assertSnapshot(
        of: Self.visible(screen.ansi(color: true)), as: .lines,
        named: "\(name)-\(width)x\(height)-colour")
    }
  }

  @Test(arguments: [80, 40])
  func everyTabsHelpLineEndsWithTheKeysEveryTabHas(width: Int) {
    for tab in AppReducer.Tab.allCases {
      let screen = draw(AppReducer.State(selectedTab: tab), width: width, height: 24)
      #expect(screen.lines.last?.hasSuffix("? keys  q quit") == true, "\(tab)")
    }
  }

  @Test func theRetryCountdownCountsDown() {
    let retry = RefreshableList.PendingRetry(attempt: 1, delay: .milliseconds(1500))
    let screen = OrdersScreen(
      store: Store(initialState: RefreshableList.State(pendingRetry: retry)) { EmptyReducer() })
    let start = ContinuousClock.now
    func line(at offset: Duration) -> String? {
      screen.body(Frame(spin: "*", height: 20, now: start + offset)).lines.map(\.text)
        .first { $0.contains("Retry") }
    }
    #expect(line(at: .zero) == "* Retry 1 of 3 in 1.5 s…")
    #expect(line(at: .milliseconds(600)) == "* Retry 1 of 3 in 0.9 s…")
    #expect(line(at: .seconds(3)) == "* Retry 1 of 3 in 0.0 s…")
  }

  @Test func aLongAlertMessageWrapsInsideItsBox() {
    var state = AppReducer.State()
    state.counter.alert = AlertState {
      TextState("Fact")
    } message: {
      TextState(String(repeating: "word ", count: 40))
    }
    let rows = draw(state, width: 40, height: 24).lines.filter { $0.contains("│") }
    #expect(rows.count > 5)
    #expect(rows.allSatisfy { TerminalText.columns($0) <= 40 && $0.hasSuffix("│") })
  }

  @Test func aTooSmallTerminalSaysSo() {
    let tiny = draw(AppReducer.State(), width: 20, height: 5)
    #expect(tiny.text.hasPrefix("Terminal too small"))
    #expect(tiny.lines.allSatisfy { TerminalText.columns($0) <= 20 })
  }

  @Test func aDeleteConfirmationFocusesTheSafeButton() {
    let contact = Contact(id: UUID(0), name: "Ada", email: "ada@example.com")
    var state = AppReducer.State(selectedTab: .contacts)
    state.contacts.contacts = [contact]
    state.contacts.path.append(
      .detail(
        ContactDetail.State(
          contact: contact, confirmationDialog: .deleteContact(named: contact.name))))
    let screen = draw(state, width: 80, height: 24).text
    #expect(screen.contains("! Delete  [Cancel]"))
  }

  @Test func withoutColourTheSelectedRowIsMarked() {
    let (_, state) = Self.states.first { $0.0 == "todos" }!
    let rows = draw(state, width: 80, height: 24).lines
    #expect(rows.filter { $0.hasPrefix("› ") }.count == 1)
    #expect(rows[3].hasPrefix("› [ ] 日本語のタスク"))
  }
}
