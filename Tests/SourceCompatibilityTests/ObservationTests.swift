// View-facing feature code as TCA 1.x's documentation writes it: observable state read through
// the store, scoped child stores, view actions and bindings. SwiftUI's views become plain
// main-actor structs that describe their screen as text; only the import differs.
import ComposableTestSupport
import Foundation
import Testing

@Reducer
struct LoginFeature {
  @ObservableState
  struct State: Equatable {
    var email = ""
    var password = ""
    var isLoggingIn = false
    @Presents var alert: AlertState<Action.Alert>?
  }

  enum Action: ViewAction {
    case alert(PresentationAction<Alert>)
    case loginResponse(Bool)
    case view(View)

    @CasePathable
    enum View: BindableAction {
      case binding(BindingAction<State>)
      case loginButtonTapped
    }

    enum Alert: Equatable {}
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .alert:
        return .none
      case let .loginResponse(success):
        state.isLoggingIn = false
        if !success {
          state.alert = AlertState { TextState("Wrong password") }
        }
        return .none
      case .view(.binding):
        return .none
      case .view(.loginButtonTapped):
        state.isLoggingIn = true
        return .send(.loginResponse(state.password == "secret"))
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

@MainActor
@ViewAction(for: LoginFeature.self)
struct LoginView {
  @Bindable var store: StoreOf<LoginFeature>

  var body: [String] {
    [
      "Email: \(store.email)",
      "Password: \(String(repeating: "•", count: store.password.count))",
      store.isLoggingIn ? "Logging in…" : "[Log in]",
    ]
  }

  /// What SwiftUI's `TextField("Email", text: $store.email)` holds.
  var emailField: Binding<String> { $store.email }
  var passwordField: Binding<String> { $store.password }

  func loginButtonTapped() {
    send(.loginButtonTapped)
  }
}

@Reducer
struct Todo {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: Int
    var title: String
    var isComplete = false
  }

  enum Action {
    case toggleTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .toggleTapped:
        state.isComplete.toggle()
        return .none
      }
    }
  }
}

@Reducer
struct Todos {
  @ObservableState
  struct State: Equatable {
    var todos: IdentifiedArrayOf<Todo.State> = []
    @Presents var destination: Destination.State?
  }

  enum Action {
    case addButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case todos(IdentifiedActionOf<Todo>)
  }

  @Reducer(state: .equatable)
  enum Destination {
    case add(LoginFeature)
    case alert(AlertState<Never>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .add(LoginFeature.State())
        return .none
      case .destination, .todos:
        return .none
      }
    }
    .forEach(\.todos, action: \.todos) { Todo() }
    .ifLet(\.$destination, action: \.destination)
  }
}

@MainActor
struct TodosView {
  let store: StoreOf<Todos>

  var body: [String] {
    var lines: [String] = []
    // `ForEach(store.scope(state: \.todos, action: \.todos)) { TodoRow(store: $0) }`
    for todoStore in store.scope(state: \.todos, action: \.todos) {
      lines.append("\(todoStore.isComplete ? "[x]" : "[ ]") \(todoStore.title)")
    }
    // `.sheet(item: $store.scope(state: \.destination?.add, action: \.destination.add))`
    if let addStore = store.scope(state: \.destination?.add, action: \.destination.add) {
      lines += LoginView(store: addStore).body
    }
    if let destination = store.scope(state: \.destination, action: \.destination.presented) {
      switch destination.case {
      case .add: lines.append("(sheet)")
      case let .alert(alert): lines.append("(alert: \(String(describing: alert.title)))")
      }
    }
    return lines
  }
}

@Reducer
struct Stack {
  @ObservableState
  struct State: Equatable {
    var path = StackState<Path.State>()
  }

  enum Action {
    case path(StackAction<Path.State, Path.Action>)
    case todoTapped(Int)
  }

  // A hand-written enum reducer with observable enum state, as TCA's navigation articles show.
  @Reducer
  struct Path {
    @ObservableState
    enum State: Equatable {
      case login(LoginFeature.State)
      case todo(Todo.State)
    }

    enum Action {
      case login(LoginFeature.Action)
      case todo(Todo.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.login, action: \.login) { LoginFeature() }
      Scope(state: \.todo, action: \.todo) { Todo() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .todoTapped(id):
        state.path.append(.todo(Todo.State(id: id, title: "#\(id)")))
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

/// The `destination:` closure of `NavigationStack(path:)`: one screen per path element's store.
@MainActor
func describe(_ store: StoreOf<Stack.Path>) -> String {
  switch store.state {
  case .login:
    if let loginStore = store.scope(state: \.login, action: \.login) {
      return "login: \(loginStore.email)"
    }
  case .todo:
    if let todoStore = store.scope(state: \.todo, action: \.todo) {
      return "todo: \(todoStore.title)"
    }
  }
  return "gone"
}

@MainActor
struct ObservationSourceTests {
  @Test
  func pathElementsScopeToTheirScreens() {
    let store = Store(initialState: Stack.State()) { Stack() }
    store.send(.todoTapped(7))
    let id = store.path.ids[0]
    let element = store.scope(state: \.path[id: id]!, action: \.path[id: id])
    #expect(describe(element) == "todo: #7")
  }

  @Test
  func viewActionsAndBindingsDriveTheFeature() async {
    let store = TestStore(initialState: LoginFeature.State()) {
      LoginFeature()
    }
    await store.send(\.view.binding.email, "blob@pointfree.co") {
      $0.email = "blob@pointfree.co"
    }
    await store.send(.view(.binding(.set(\.password, "oops")))) {
      $0.password = "oops"
    }
    await store.send(.view(.loginButtonTapped)) {
      $0.isLoggingIn = true
    }
    await store.receive(\.loginResponse) {
      $0.isLoggingIn = false
      $0.alert = AlertState { TextState("Wrong password") }
    }
  }

  @Test
  func aViewActionScreenSendsAndBinds() {
    let store = Store(initialState: LoginFeature.State()) { LoginFeature() }
    let view = LoginView(store: store)
    view.emailField.wrappedValue = "blob@pointfree.co"
    view.passwordField.wrappedValue = "secret"
    #expect(view.body == ["Email: blob@pointfree.co", "Password: ••••••", "[Log in]"])
    view.loginButtonTapped()
    #expect(store.isLoggingIn == false)
    #expect(store.alert == nil)
  }

  @Test
  func aScreenRedrawsForWhatItRead() async {
    let store = Store(initialState: LoginFeature.State()) { LoginFeature() }
    let view = LoginView(store: store)
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = view.body
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    store.send(.view(.binding(.set(\.email, "a"))))
    #expect(changes.value == 1)
  }

  @Test
  func listsAndDestinationsScopeToChildStores() {
    let store = Store(
      initialState: Todos.State(
        todos: [Todo.State(id: 1, title: "Milk"), Todo.State(id: 2, title: "Eggs")]
      )
    ) {
      Todos()
    }
    let view = TodosView(store: store)
    #expect(view.body == ["[ ] Milk", "[ ] Eggs"])

    store.scope(state: \.todos, action: \.todos)[1].send(.toggleTapped)
    #expect(view.body == ["[ ] Milk", "[x] Eggs"])

    store.send(.addButtonTapped)
    #expect(view.body == ["[ ] Milk", "[x] Eggs", "Email: ", "Password: ", "[Log in]", "(sheet)"])
  }
}
