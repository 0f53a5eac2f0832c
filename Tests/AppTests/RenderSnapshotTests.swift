import AppFeature
import ComposableCore
import ContactsClient
import CounterFeature
import Foundation
import NavigationFeature
import OrdersClient
import RefreshableListFeature
import Testing
import TodoListFeature
import TodosClient

@testable import composable

/// Each tab drawn at 80×24 with colour off, compared line by line: what a person sees.
@MainActor
struct RenderSnapshotTests {
  func render(_ state: AppReducer.State, view: AppViewState = AppViewState()) -> String {
    Renderer.render(store(state), view: view, width: 80, height: 24).text
  }

  func store(_ state: AppReducer.State) -> StoreOf<AppReducer> {
    Store(initialState: state) { EmptyReducer() }
  }

  func snapshot(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("__Snapshots__").appendingPathComponent("\(name).txt")
    return try String(contentsOf: url, encoding: .utf8)
  }

  static let day = Date(timeIntervalSince1970: 1_700_000_000)

  var states: [(String, AppReducer.State)] {
    let page = try! DemoOrders.page(for: PageRequest(page: 0))
    let list = RefreshableList.OrderList(page)
    return [
      (
        "counter",
        AppReducer.State(
          selectedTab: .counter,
          counter: Counter.State(count: 42, isTimerRunning: false, timerInterval: .twoSeconds))
      ),
      (
        "todos",
        AppReducer.State(
          selectedTab: .todos,
          todos: TodoList.State(
            todos: [
              TodoItem(id: UUID(0), title: "Buy milk", priority: .high, createdAt: Self.day),
              TodoItem(
                id: UUID(1), title: "Water the plants", isCompleted: true, priority: .low,
                createdAt: Self.day),
            ],
            hasLoaded: true
          )
        )
      ),
      (
        "orders",
        AppReducer.State(
          selectedTab: .orders, orders: RefreshableList.State(pageState: .loaded(list, .idle)))
      ),
      ("signup", AppReducer.State(selectedTab: .signUp)),
      (
        "contacts",
        AppReducer.State(
          selectedTab: .contacts,
          contacts: ContactsBook.State(
            contacts: [
              Contact(
                id: UUID(0), name: "Ada Lovelace", email: "ada@example.com", isFavorite: true),
              Contact(id: UUID(1), name: "Alan Turing", phone: "+44 20 7946 0000"),
            ],
            hasLoaded: true
          )
        )
      ),
    ]
  }

  @Test func everyTabAt80By24() throws {
    for (name, state) in states {
      let rendered = render(state)
      if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
          .appendingPathComponent("__Snapshots__")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try rendered.write(
          to: url.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
      }
      #expect(rendered == (try snapshot(name)), "tab \(name)")
      #expect(rendered.split(separator: "\n", omittingEmptySubsequences: false).count == 24)
    }
  }

  @Test func aSmallTerminalDegradesGracefully() {
    let small = Renderer.render(
      store(AppReducer.State()), view: AppViewState(), width: 40, height: 10
    )
    .text
    #expect(
      small.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { $0.count <= 40 })
    #expect(small.contains("Count: 0"))
    let tiny = Renderer.render(
      store(AppReducer.State()), view: AppViewState(), width: 20, height: 5
    )
    .text
    #expect(tiny.hasPrefix("Terminal too small"))
    #expect(
      tiny.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { $0.count <= 20 })
  }

  @Test func anAlertIsAModalBox() {
    var state = AppReducer.State()
    state.counter.alert = .failure(
      title: "Could not get a fact", message: "Offline.", retry: .retryButtonTapped)
    let screen = render(state)
    #expect(screen.contains("┌─Could not get a fact"))
    #expect(screen.contains("│ [Retry]  Cancel"))
    #expect(screen.contains("←/→ choose  Enter press  Esc dismiss"))
  }
}
