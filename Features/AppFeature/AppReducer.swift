import AnalyticsClient
import ComposableCore
import CounterFeature
import FormFeature
import NavigationFeature
import RefreshableListFeature
import TodoListFeature

/// The root of the app: one tab per feature, each feature scoped to its own state, and a toast
/// that children trigger through their delegate actions only.
@Reducer
public struct AppReducer: Sendable {
  /// The app's tabs, in tab-bar order.
  public enum Tab: String, CaseIterable, Equatable, Codable, Sendable {
    /// The counter.
    case counter
    /// The todo list.
    case todos
    /// The orders list.
    case orders
    /// The sign-up form.
    case signUp = "signup"
    /// The contacts book.
    case contacts
  }

  /// The whole app.
  @ObservableState
  public struct State: Equatable {
    /// The tab showing.
    public var selectedTab: Tab
    /// The counter tab.
    public var counter: Counter.State
    /// The todos tab.
    public var todos: TodoList.State
    /// The orders tab.
    public var orders: RefreshableList.State
    /// The sign-up tab.
    public var signUp: SignUpForm.State
    /// The contacts tab.
    public var contacts: ContactsBook.State
    /// A short message over every tab, gone after a few seconds.
    public var toast: String?
    /// The account made on the sign-up tab, shown in the header; the sign-up form writes it.
    @SharedReader(.accountEmail) public var accountEmail

    /// How many changes on the todos and contacts tabs are not saved yet, a todo order still to
    /// be sorted among them.
    public var unsavedChangeCount: Int {
      todos.unsavedChanges.count + (todos.isSortPending ? 1 : 0) + contacts.unsavedChanges.count
    }

    /// The app, on the counter tab unless told otherwise.
    public init(
      selectedTab: Tab = .counter,
      counter: Counter.State = Counter.State(),
      todos: TodoList.State = TodoList.State(),
      orders: RefreshableList.State = RefreshableList.State(),
      signUp: SignUpForm.State = SignUpForm.State(),
      contacts: ContactsBook.State = ContactsBook.State(),
      toast: String? = nil
    ) {
      self.selectedTab = selectedTab
      self.counter = counter
      self.todos = todos
      self.orders = orders
      self.signUp = signUp
      self.contacts = contacts
      self.toast = toast
    }
  }

  /// Everything that happens in the app.
  public enum Action: Equatable, Codable {
    /// Switches tabs.
    case tabSelected(Tab)
    /// The counter's actions.
    case counter(Counter.Action)
    /// The todo list's actions.
    case todos(TodoList.Action)
    /// The orders list's actions.
    case orders(RefreshableList.Action)
    /// The sign-up form's actions.
    case signUp(SignUpForm.Action)
    /// The contacts book's actions.
    case contacts(ContactsBook.Action)
    /// Hides the toast.
    case toastDismissed
  }

  enum CancelID { case toast }

  /// How long a toast stays.
  public static let toastDuration: Duration = .seconds(4)

  @Dependency(\.continuousClock) var clock

  /// The app reducer.
  public init() {}

  /// Every feature, each on its own part of the state, then the app's own logic; every action
  /// is reported to analytics.
  public var body: some ReducerOf<Self> {
    CombineReducers {
      Scope(state: \.counter, action: \.counter) { Counter() }
      Scope(state: \.todos, action: \.todos) { TodoList() }
      Scope(state: \.orders, action: \.orders) { RefreshableList() }
      Scope(state: \.signUp, action: \.signUp) { SignUpForm() }
      Scope(state: \.contacts, action: \.contacts) { ContactsBook() }
      Reduce { state, action in
        switch action {
        case .tabSelected(let tab):
          state.selectedTab = tab
          return .none

        case .signUp(.delegate(.accountCreated(let account))):
          state.toast = "Signed up as \(account.email)"
          return .run { send in
            try await clock.sleep(for: Self.toastDuration)
            await send(.toastDismissed)
          }
          .cancellable(id: CancelID.toast, cancelInFlight: true)

        case .toastDismissed:
          state.toast = nil
          return .cancel(id: CancelID.toast)

        case .counter, .todos, .orders, .signUp, .contacts:
          return .none
        }
      }
    }
    .analytics()
  }
}

extension Reducer {
  /// Reports every action this reducer receives to the analytics client, as an effect beside
  /// the reducer's own; the features themselves know nothing about it.
  public func analytics() -> _AnalyticsReducer<Self> {
    _AnalyticsReducer(base: self)
  }
}

/// The reducer `analytics()` returns.
public struct _AnalyticsReducer<Base: Reducer>: Reducer {
  let base: Base
  @Dependency(\.analyticsClient) var analyticsClient
  @Dependency(\.date.now) var now

  /// Runs the base reducer, and an effect that tracks the action.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // The event is made now, so it carries the time the action happened; sending it is a side
    // effect, so it runs as one.
    let event = AnalyticsEvent(name: ActionLabel.of(action), date: now)
    let analyticsClient = analyticsClient
    return .merge(
      .run { _ in analyticsClient.track(event) },
      base.reduce(into: &state, action: action)
    )
  }
}

extension AppReducer.State: RecordingSecrets {
  /// The sign-up form's secrets, within the app.
  public static var secretFields: [WritableKeyPath<Self, String>] {
    let signUp: WritableKeyPath<Self, SignUpForm.State> = \.signUp
    return SignUpForm.State.secretFields.map { signUp.appending(path: $0) }
  }
}
