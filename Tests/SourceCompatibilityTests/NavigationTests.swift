// Tree and stack navigation as TCA 1.x's navigation articles write them; only the import differs.
import ComposableTestSupport
import Testing

@Reducer
struct EditItem {
  @ObservableState
  struct State: Equatable {
    var name: String
  }
  enum Action: Equatable {
    case delegate(Delegate)
    case nameChanged(String)
    case saveButtonTapped
    @CasePathable
    enum Delegate: Equatable {
      case saved(String)
    }
  }
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .delegate:
        return .none
      case let .nameChanged(name):
        state.name = name
        return .none
      case .saveButtonTapped:
        return .run { [name = state.name] send in
          await send(.delegate(.saved(name)))
          await self.dismiss()
        }
      }
    }
  }
}

@Reducer
struct ItemDetail {
  @ObservableState
  struct State: Equatable {
    var name: String
  }
  enum Action {
    case deleteButtonTapped
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}

@Reducer
struct ItemList {
  @ObservableState
  struct State: Equatable {
    var items: [String] = []
    @Presents var destination: Destination.State?
    var path = StackPath()
  }
  typealias StackPath = StackState<Path.State>

  enum Action {
    case addButtonTapped
    case deleteButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Path>)
  }

  @Reducer(state: .equatable)
  enum Destination {
    case add(EditItem)
    case alert(AlertState<Alert>)

    @CasePathable
    enum Alert: Equatable {
      case confirmDeletion
    }
  }

  @Reducer(state: .equatable)
  enum Path {
    case detail(ItemDetail)
    case edit(EditItem)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .add(EditItem.State(name: ""))
        return .none
      case .deleteButtonTapped:
        state.destination = .alert(
          AlertState {
            TextState("Delete everything?")
          } actions: {
            ButtonState(role: .destructive, action: .confirmDeletion) {
              TextState("Delete")
            }
          }
        )
        return .none
      case let .destination(.presented(.add(.delegate(.saved(name))))):
        state.items.append(name)
        return .none
      case .destination(.presented(.alert(.confirmDeletion))):
        state.items.removeAll()
        return .none
      case let .path(.element(id: _, action: .edit(.delegate(.saved(name))))):
        state.items.append(name)
        return .none
      case .destination, .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
    .forEach(\.path, action: \.path)
  }
}

@MainActor
struct NavigationTests {
  @Test
  func treeNavigationWithDismiss() async {
    let store = TestStore(initialState: ItemList.State()) {
      ItemList()
    }

    await store.send(.addButtonTapped) {
      $0.destination = .add(EditItem.State(name: ""))
    }
    await store.send(\.destination.add.nameChanged, "Milk") {
      $0.destination?.modify(\.add) { $0.name = "Milk" }
    }
    await store.send(\.destination.add.saveButtonTapped)
    await store.receive(\.destination.add.delegate.saved, "Milk") {
      $0.items = ["Milk"]
    }
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test
  func alertIsDismissedByItsAction() async {
    let store = TestStore(initialState: ItemList.State(items: ["Eggs"])) {
      ItemList()
    }

    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(
        AlertState {
          TextState("Delete everything?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) {
            TextState("Delete")
          }
        }
      )
    }
    await store.send(\.destination.alert.confirmDeletion) {
      $0.items = []
      $0.destination = nil
    }
  }

  @Test
  func stackNavigation() async {
    let store = TestStore(initialState: ItemList.State()) {
      ItemList()
    }

    await store.send(.path(.push(id: 0, state: .edit(EditItem.State(name: ""))))) {
      $0.path[id: 0] = .edit(EditItem.State(name: ""))
    }
    await store.send(\.path[id: 0].edit.nameChanged, "Bread") {
      $0.path[id: 0, case: \.edit]?.name = "Bread"
    }
    await store.send(\.path[id: 0].edit.saveButtonTapped)
    await store.receive(\.path[id: 0].edit.delegate.saved, "Bread") {
      $0.items = ["Bread"]
    }
    await store.receive(\.path.popFrom) {
      $0.path.removeAll()
    }
  }

  @Test
  func storeCaseSwitchesOverTheDestination() {
    let store = Store(initialState: ItemList.State(destination: .add(EditItem.State(name: "Tea"))))
    {
      ItemList()
    }
    guard let destination = store.scope(state: \.destination, action: \.destination.presented)
    else {
      Issue.record("Expected a destination")
      return
    }
    switch destination.case {
    case let .add(editStore):
      #expect(editStore.state.name == "Tea")
      editStore.send(.nameChanged("Coffee"))
      #expect(store.state.destination?.add?.name == "Coffee")
    case .alert:
      Issue.record("Expected the add case")
    }
  }

  @Test
  func enumReducerStateIsCasePathable() {
    let state = ItemList.Path.State.detail(ItemDetail.State(name: "Jam"))
    #expect(state.detail?.name == "Jam")
    #expect(state.edit == nil)
    #expect(state.is(\.detail))
  }
}

/// Cases under `#if`, as TCA allows in an enum reducer.
@Reducer
struct Panels {
  @ObservableState
  struct State: Equatable {
    @Presents var panel: Panel.State?
  }
  enum Action {
    case panel(PresentationAction<Panel.Action>)
    case showDetail
  }

  @Reducer(state: .equatable)
  enum Panel {
    case edit(EditItem)
    #if os(Linux)
      case detail(ItemDetail)
    #else
      case other
    #endif
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showDetail:
        #if os(Linux)
          state.panel = .detail(ItemDetail.State(name: "Linux"))
        #endif
        return .none
      case .panel:
        return .none
      }
    }
    .ifLet(\.$panel, action: \.panel)
  }
}

@MainActor
struct ConditionalCaseTests {
  @Test
  func casesUnderIfConfigAreScoped() async {
    let store = TestStore(initialState: Panels.State()) {
      Panels()
    }
    #if os(Linux)
      await store.send(.showDetail) {
        $0.panel = .detail(ItemDetail.State(name: "Linux"))
      }
      await store.send(\.panel.detail.deleteButtonTapped)
    #endif
  }
}

/// A parent that answers a draft's dismissal by presenting a fresh draft in its place.
@Reducer
struct Drafts {
  @Reducer
  struct Draft {
    @ObservableState
    struct State: Equatable, Identifiable {
      let id: Int
    }
    enum Action: Equatable {}
    var body: some ReducerOf<Self> { EmptyReducer() }
  }
  @ObservableState
  struct State: Equatable {
    @Presents var draft: Draft.State?
    var keepsOneOpen = true
  }
  enum Action: Equatable {
    case draft(PresentationAction<Draft.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .draft(.dismiss) = action, state.keepsOneOpen, let draft = state.draft {
        state.draft = Draft.State(id: draft.id + 1)
      }
      return .none
    }
    .ifLet(\.$draft, action: \.draft) { Draft() }
  }
}

@MainActor
struct DismissalReplacementTests {
  /// As in TCA: the parent runs before `.dismiss` clears the child, and a different child it
  /// puts in place stays presented; the same child is cleared.
  @Test func aChildPutInPlaceOfTheDismissedOneStays() async {
    let store = TestStore(initialState: Drafts.State(draft: .init(id: 1))) { Drafts() }
    await store.send(.draft(.dismiss)) {
      $0.draft = .init(id: 2)
    }
    await store.send(.draft(.dismiss)) {
      $0.draft = .init(id: 3)
    }
  }

  @Test func theSameChildIsCleared() async {
    let store = TestStore(initialState: Drafts.State(draft: .init(id: 1), keepsOneOpen: false)) {
      Drafts()
    }
    await store.send(.draft(.dismiss)) {
      $0.draft = nil
    }
  }
}

/// A child whose work never ends by itself, removed by reducers before and after its `ifLet`.
@Reducer
struct Watcher {
  @Reducer
  struct Feed {
    struct State: Equatable {}
    enum Action: Equatable { case onAppear }
    var body: some ReducerOf<Self> {
      Reduce { _, _ in .run { _ in try await Task.never() } }
    }
  }
  @ObservableState
  struct State: Equatable {
    @Presents var feed: Feed.State?
  }
  enum Action: Equatable {
    case closeBefore
    case closeAfter
    case feed(PresentationAction<Feed.Action>)
    case open
    case other
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if action == .closeBefore { state.feed = nil }
      return .none
    }
    Reduce { state, action in
      if action == .open { state.feed = Feed.State() }
      return .none
    }
    .ifLet(\.$feed, action: \.feed) { Feed() }
    Reduce { state, action in
      if action == .closeAfter { state.feed = nil }
      return .none
    }
  }
}

@MainActor
struct OuterCancellationTests {
  /// As in TCA: a child taken away by a reducer outside its `ifLet` has its work cancelled by
  /// the next action through the `ifLet`, its own removal when the reducer runs first.
  @Test func aChildRemovedBeforeItsIfLetHasItsWorkCancelled() async {
    let store = TestStore(initialState: Watcher.State()) { Watcher() }
    await store.send(.open) { $0.feed = Watcher.Feed.State() }
    await store.send(.feed(.presented(.onAppear)))
    await store.send(.closeBefore) { $0.feed = nil }
  }

  @Test func aChildRemovedAfterItsIfLetIsCancelledNext() async {
    let store = TestStore(initialState: Watcher.State()) { Watcher() }
    await store.send(.open) { $0.feed = Watcher.Feed.State() }
    await store.send(.feed(.presented(.onAppear)))
    await store.send(.closeAfter) { $0.feed = nil }
    await store.send(.other)
  }

  /// Presented again: the new child's work is its own, and the old one's is gone.
  @Test func aChildPresentedAgainKeepsOnlyItsOwnWork() async {
    let store = TestStore(initialState: Watcher.State()) { Watcher() }
    await store.send(.open) { $0.feed = Watcher.Feed.State() }
    await store.send(.feed(.presented(.onAppear)))
    await store.send(.closeAfter) { $0.feed = nil }
    await store.send(.open) { $0.feed = Watcher.Feed.State() }
    await store.send(.feed(.presented(.onAppear)))
    await store.send(.closeBefore) { $0.feed = nil }
  }
}

/// The same for a stack: elements cleared by reducers before and after its `forEach`.
@Reducer
struct WatcherStack {
  @ObservableState
  struct State: Equatable {
    var path = StackState<Watcher.Feed.State>()
  }
  enum Action: Equatable {
    case clearAfter
    case clearBefore
    case path(StackAction<Watcher.Feed.State, Watcher.Feed.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if action == .clearBefore { state.path.removeAll() }
      return .none
    }
    Reduce { _, _ in .none }
      .forEach(\.path, action: \.path) { Watcher.Feed() }
    Reduce { state, action in
      if action == .clearAfter { state.path.removeAll() }
      return .none
    }
  }
}

@MainActor
struct StackOuterCancellationTests {
  @Test func elementsClearedOutsideForEachAreCancelled() async {
    let store = TestStore(initialState: WatcherStack.State()) { WatcherStack() }
    await store.send(.path(.push(id: 0, state: Watcher.Feed.State()))) {
      $0.path[id: 0] = Watcher.Feed.State()
    }
    await store.send(.path(.element(id: 0, action: .onAppear)))
    await store.send(.clearBefore) { $0.path.removeAll() }

    await store.send(.path(.push(id: 1, state: Watcher.Feed.State()))) {
      $0.path[id: 1] = Watcher.Feed.State()
    }
    await store.send(.path(.element(id: 1, action: .onAppear)))
    await store.send(.clearAfter) { $0.path.removeAll() }
    // The next action through the `forEach` finds the element gone.
    await store.send(.clearAfter)
  }
}
