// Composition, collections, bindings, generic and nested reducers as TCA 1.x's documentation
// writes them; only the import differs.
import ComposableTestSupport
import Foundation
import Testing

@Reducer
struct Toggle {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: Int
    var isOn = false
  }
  enum Action: Equatable {
    case tapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tapped:
        state.isOn.toggle()
        return .none
      }
    }
  }
}

@Reducer
struct ToggleList {
  @ObservableState
  struct State: Equatable {
    var toggles: IdentifiedArrayOf<Toggle.State> = []
    var header = Toggle.State(id: 0)
  }
  enum Action: Equatable {
    case header(Toggle.Action)
    case toggles(IdentifiedActionOf<Toggle>)
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.header, action: \.header) {
      Toggle()
    }
    Reduce { state, action in
      switch action {
      case .header(.tapped):
        // Observable state's properties are accessors: read before writing, as with TCA.
        let isOn = state.header.isOn
        for id in state.toggles.ids {
          state.toggles[id: id]?.isOn = isOn
        }
        return .none
      case .toggles:
        return .none
      }
    }
    .forEach(\.toggles, action: \.toggles) {
      Toggle()
    }
  }
}

@Reducer
struct Settings {
  @ObservableState
  struct State: Equatable {
    var email = ""
    var notifications = false
  }
  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
  }
  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

/// A reducer generic over its child, as TCA's docs allow.
@Reducer
struct Logged<Child: Reducer> where Child.State: Equatable {
  @ObservableState
  struct State: Equatable {
    var child: Child.State
    var log: [String] = []
  }
  enum Action {
    case child(Child.Action)
  }
  let child: Child

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) {
      child
    }
    Reduce { state, action in
      state.log.append("\(action)")
      return .none
    }
  }
}

enum Outer {
  /// A reducer nested in another type.
  @Reducer
  struct Inner {
    @ObservableState
    struct State: Equatable {
      var value = 0
    }
    enum Action {
      case set(Int)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case let .set(value):
        state.value = value
        return .none
      }
    }
  }
}

/// A stub feature: `@Reducer` fills in an empty domain.
@Reducer
struct Placeholder {}

@MainActor
struct CompositionTests {
  @Test
  func collectionActionsByID() async {
    let store = TestStore(
      initialState: ToggleList.State(toggles: [Toggle.State(id: 1), Toggle.State(id: 2)])
    ) {
      ToggleList()
    }
    await store.send(\.toggles[id: 2].tapped) {
      $0.toggles[id: 2]?.isOn = true
    }
    await store.send(\.header.tapped) {
      $0.header.isOn = true
      $0.toggles[id: 1]?.isOn = true
    }
  }

  @Test
  func bindingKeyPaths() async {
    let store = TestStore(initialState: Settings.State()) {
      Settings()
    }
    await store.send(\.binding.email, "blob@pointfree.co") {
      $0.email = "blob@pointfree.co"
    }
    await store.send(.binding(.set(\.notifications, true))) {
      $0.notifications = true
    }
  }

  @Test
  func actionsAreDynamicMemberLookable() {
    let action = ToggleList.Action.toggles(.element(id: 1, action: .tapped))
    #expect(action.toggles != nil)
    #expect(action.header == nil)
    #expect(ToggleList.Action.header(.tapped).header == .tapped)
  }

  @Test
  func genericReducer() async {
    let store = TestStore(initialState: Logged<Toggle>.State(child: Toggle.State(id: 7))) {
      Logged(child: Toggle())
    }
    await store.send(\.child.tapped) {
      $0.child.isOn = true
      $0.log = ["child(SourceCompatibilityTests.Toggle.Action.tapped)"]
    }
  }

  @Test
  func nestedReducer() async {
    let store = TestStore(initialState: Outer.Inner.State()) {
      Outer.Inner()
    }
    await store.send(\.set, 42) {
      $0.value = 42
    }
  }

  @Test
  func placeholderHasAnEmptyDomain() {
    let store = Store(initialState: Placeholder.State()) {
      Placeholder()
    }
    #expect(store.state == Placeholder.State())
  }
}
