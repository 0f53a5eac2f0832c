import AppFeature
import ArgumentParser
import ComposableCore
import CounterFeature
import FormFeature
import Foundation
import NavigationFeature
import OrdersClient
import RefreshableListFeature
import TodoListFeature
import TodosClient

// MARK: actions

struct Actions: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Lists what a person can do in a feature, as the JSON lines drive reads.",
    discussion: """
      An action is an object whose one key names it; its values go under "_0", "_1"… or under \
      their labels, and a child feature's actions nest inside its case ({"todos":{"_0":…}} in \
      the app). A field is set with a binding: {"binding":{"_0":{"field":"newTitle","value":"Milk"}}}; \
      the sign-up and contact forms wrap theirs in "view". Rows and stack screens are named by \
      their id. Results that effects send (responses, timers) are actions too, and drive \
      accepts them, but they are not listed.
      """
  )

  @Argument(help: "The feature: \(FeatureName.allCases.map(\.rawValue).joined(separator: ", ")).")
  var feature: FeatureName

  func run() throws {
    for line in try ActionCatalogue.lines(of: feature) { print(line) }
  }
}

/// Examples of every action a person can take in each feature, written by the same encoder that
/// `drive` decodes with, so the format shown is the format read.
enum ActionCatalogue {
  /// One JSON line per example.
  static func lines(of feature: FeatureName) throws -> [String] {
    switch feature {
    case .counter: try encode(counter)
    case .todos: try encode(todos)
    case .orders: try encode(orders)
    case .signup: try encode(signUp)
    case .contacts: try encode(contacts)
    case .app:
      try encode(
        [AppReducer.Action.tabSelected(.todos), .toastDismissed]
          + counter.map(AppReducer.Action.counter) + todos.map(AppReducer.Action.todos)
          + orders.map(AppReducer.Action.orders) + signUp.map(AppReducer.Action.signUp)
          + contacts.map(AppReducer.Action.contacts))
    }
  }

  private static func encode(_ actions: [some Encodable]) throws -> [String] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return try actions.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
  }

  /// The id examples name a row or a contact by; `todos list --json` and `contacts list --json`
  /// give the real ones.
  private static let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

  static var counter: [Counter.Action] {
    [
      .incrementButtonTapped, .decrementButtonTapped, .resetButtonTapped,
      .toggleTimerButtonTapped, .timerIntervalSelected(.twoSeconds), .factButtonTapped,
      .alert(.presented(.retryButtonTapped)), .alert(.dismiss),
    ]
  }

  static var todos: [TodoList.Action] {
    [
      .onAppear, .binding(.set(\.newTitle, "Buy milk")), .binding(.set(\.newPriority, .high)),
      .addButtonTapped, .binding(.set(\.searchQuery, "milk")), .filterSelected(.active),
      .todos(.element(id: id, action: .toggleCompletionButtonTapped)),
      .todos(.element(id: id, action: .titleChanged("Buy oat milk"))),
      .todos(.element(id: id, action: .priorityChanged(.low))),
      .deleteButtonTapped(id: id), .move(fromOffsets: IndexSet(integer: 0), toOffset: 2),
      .clearCompletedButtonTapped,
    ]
  }

  static var orders: [RefreshableList.Action] {
    [
      .onAppear, .pullToRefresh, .loadMore, .retry, .toggleFilterDropdown,
      .selectFilter(.status(.shipped)), .selectFilter(.all),
    ]
  }

  static var signUp: [SignUpForm.Action] {
    [
      .view(.binding(.set(\.email, "ada@example.com"))),
      .view(.binding(.set(\.password, "engine42"))),
      .view(.binding(.set(\.confirmPassword, "engine42"))),
      .view(.binding(.set(\.acceptTerms, true))), .view(.submitButtonTapped),
      .alert(.presented(.retryButtonTapped)), .alert(.dismiss),
    ]
  }

  static var contacts: [ContactsBook.Action] {
    [
      .onAppear, .addButtonTapped,
      .destination(.presented(.add(.view(.binding(.set(\.contact.name, "Ada")))))),
      .destination(.presented(.add(.view(.saveButtonTapped)))),
      .destination(.presented(.add(.view(.cancelButtonTapped)))),
      .contactTapped(id: id), .path(.element(id: 0, action: .detail(.favoriteButtonTapped))),
      .path(.element(id: 0, action: .detail(.editButtonTapped))),
      .path(.element(id: 0, action: .detail(.deleteButtonTapped))),
      .path(.element(id: 0, action: .detail(.confirmationDialog(.presented(.confirmDeletion))))),
      .path(.popFrom(id: 0)), .settingsButtonTapped, .popToRootButtonTapped,
    ]
  }
}
