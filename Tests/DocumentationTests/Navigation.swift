import ComposableTestSupport
import Testing

// The code of the Navigation article (ComposableCore.docc/Navigation.md), as it is there.

@Reducer
struct ContactDetail {
  @ObservableState
  struct State: Equatable {
    var name: String
  }

  enum Action: Equatable {
    case closeButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      }
    }
  }
}

@Reducer
struct Contacts {
  @Reducer
  enum Destination {
    case detail(ContactDetail)
    case alert(AlertState<Alert>)

    @CasePathable
    enum Alert: Equatable {
      case confirmDeletion
    }
  }

  @Reducer
  enum Path {
    case detail(ContactDetail)
  }

  @ObservableState
  struct State: Equatable {
    var names: [String] = []
    @Presents var destination: Destination.State?
    var path = StackState<Path.State>()
  }

  enum Action {
    case deleteAllButtonTapped
    case nameTapped(String)
    case pushButtonTapped(String)
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Path>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteAllButtonTapped:
        state.destination = .alert(
          AlertState {
            TextState("Delete every contact?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
          }
        )
        return .none
      case .destination(.presented(.alert(.confirmDeletion))):
        state.names = []
        return .none
      case .nameTapped(let name):
        state.destination = .detail(ContactDetail.State(name: name))
        return .none
      case .pushButtonTapped(let name):
        state.path.append(.detail(ContactDetail.State(name: name)))
        return .none
      case .destination, .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

extension Contacts.Destination.State: Equatable {}
extension Contacts.Path.State: Equatable {}

@MainActor
struct ContactsTests {
  @Test func aPresentedDetailDismissesItself() async {
    let store = TestStore(initialState: Contacts.State(names: ["Ada"])) { Contacts() }
    await store.send(.nameTapped("Ada")) {
      $0.destination = .detail(ContactDetail.State(name: "Ada"))
    }
    await store.send(\.destination.detail.closeButtonTapped)
    await store.receive(\.destination.dismiss) { $0.destination = nil }
  }

  @Test func anAlertButtonIsAnAction() async {
    let store = TestStore(initialState: Contacts.State(names: ["Ada"])) { Contacts() }
    await store.send(.deleteAllButtonTapped) {
      $0.destination = .alert(
        AlertState {
          TextState("Delete every contact?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        }
      )
    }
    await store.send(\.destination.alert.confirmDeletion) {
      $0.destination = nil
      $0.names = []
    }
  }

  @Test func aPushedScreenIsFoundByItsID() async {
    let store = TestStore(initialState: Contacts.State()) { Contacts() }
    await store.send(.pushButtonTapped("Alan")) {
      $0.path[id: 0] = .detail(ContactDetail.State(name: "Alan"))
    }
    await store.send(\.path[id: 0].detail.closeButtonTapped)
    await store.receive(\.path.popFrom) { $0.path[id: 0] = nil }
  }
}
