import ComposableTestSupport
import Observation
import Testing

// The code of the Observation article (ComposableCore.docc/ObservationWithoutSwiftUI.md), as it
// is there.

@Reducer
struct Profile {
  @ObservableState
  struct State: Equatable {
    var name = ""
    var saves = 0
  }

  enum Action: BindableAction, Equatable {
    case binding(BindingAction<State>)
    case saveButtonTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      if case .saveButtonTapped = action { state.saves += 1 }
      return .none
    }
  }
}

@MainActor
struct ProfileTests {
  @Test func aReaderIsToldOfWhatItRead() {
    let store = Store(initialState: Profile.State()) { Profile() }
    let nameChanged = LockIsolated(false)
    withObservationTracking {
      _ = store.name
    } onChange: {
      nameChanged.setValue(true)
    }
    store.send(.saveButtonTapped)
    #expect(nameChanged.value == false)
    store.name = "Ada"
    #expect(nameChanged.value == true)
    #expect(store.name == "Ada")
  }

  @Test func aBindingSendsTheBindingAction() {
    let store = Store(initialState: Profile.State()) { Profile() }
    let name = store.binding(\.name)
    name.wrappedValue = "Grace"
    #expect(store.name == "Grace")
  }
}
