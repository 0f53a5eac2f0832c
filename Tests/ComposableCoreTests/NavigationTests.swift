import ComposableCore
import ComposableTestSupport
import Foundation
import Testing

@MainActor
struct StackNavigationTests {
  let apple = Item(id: 1, title: "Apple")
  let pear = Item(id: 2, title: "Pear")

  func makeStore(
    path: StackState<ItemList.Path.State> = [],
    clock: TestClock<Duration> = TestClock()
  ) -> TestStoreOf<ItemList> {
    TestStore(initialState: ItemList.State(items: [apple, pear], path: path)) {
      ItemList()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func pushFromTheParentAndThroughAPushAction() async {
    let store = makeStore()
    await store.send(.itemTapped(1)) {
      $0.path[id: 0] = .detail(ItemDetail.State(item: apple))
    }
    await store.send(.path(.push(id: 1, state: .detail(ItemDetail.State(item: pear))))) {
      $0.path[id: 1] = .detail(ItemDetail.State(item: pear))
    }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func elementActionsReachTheElement() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.itemTapped(2)) {
      $0.path[id: 0] = .detail(ItemDetail.State(item: pear))
    }
    await store.send(.path(.element(id: 0, action: .detail(.onAppear))))
    await clock.advance(by: .seconds(2))
    await store.receive(\.path[id: 0].detail.timerTicked) {
      $0.path[id: 0, case: \.detail]?.secondsOnScreen = 1
    }
    await store.receive(\.path[id: 0].detail.timerTicked) {
      $0.path[id: 0, case: \.detail]?.secondsOnScreen = 2
    }
    // Going back cancels the timer: the test would fail on a still-running effect otherwise.
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = []
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func aPushedChildsDelegateUpdatesParentAndDetail() async {
    let store = makeStore()
    await store.send(.itemTapped(1)) {
      $0.path[id: 0] = .detail(ItemDetail.State(item: apple))
    }
    await store.send(.path(.element(id: 0, action: .detail(.editButtonTapped))))
    await store.receive(\.path[id: 0].detail.delegate.editRequested, apple) {
      $0.path[id: 1] = .edit(ItemEdit.State(item: apple))
    }
    await store.send(.path(.element(id: 1, action: .edit(.set(\.draft, "Green apple"))))) {
      $0.path[id: 1, case: \.edit]?.draft = "Green apple"
    }
    await store.send(.path(.element(id: 1, action: .edit(.saveButtonTapped))))
    let saved = Item(id: 1, title: "Green apple")
    await store.receive(\.path[id: 1].edit.delegate.saved, saved) {
      $0.items[id: 1] = saved
      $0.path[id: 0, case: \.detail]?.item = saved
    }
    // The edit screen dismissed itself, which pops it.
    await store.receive(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
    }
    #expect(store.state.path.ids == [0])
  }

  @Test func dismissFromAChildPopsIt() async {
    let store = makeStore(path: [
      .detail(ItemDetail.State(item: apple)), .edit(ItemEdit.State(item: apple)),
    ])
    await store.send(.path(.element(id: 1, action: .edit(.cancelButtonTapped))))
    await store.receive(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
    }
  }

  @Test func bindingValidationReactsToOneField() async {
    let store = makeStore(path: [.edit(ItemEdit.State(item: apple))])
    await store.send(.path(.element(id: 0, action: .edit(.set(\.draft, "   "))))) {
      $0.path[id: 0, case: \.edit]?.draft = "   "
      $0.path[id: 0, case: \.edit]?.titleError = "A title cannot be empty."
    }
    // Saving an invalid title does nothing.
    await store.send(.path(.element(id: 0, action: .edit(.saveButtonTapped))))
    await store.send(.path(.element(id: 0, action: .edit(.set(\.draft, "Apples"))))) {
      $0.path[id: 0, case: \.edit]?.draft = "Apples"
      $0.path[id: 0, case: \.edit]?.titleError = nil
    }
  }

  @Test func popToRootCancelsEveryElementsEffects() async {
    let clock = TestClock()
    let store = makeStore(
      path: [.detail(ItemDetail.State(item: apple)), .detail(ItemDetail.State(item: pear))],
      clock: clock
    )
    await store.send(.path(.element(id: 0, action: .detail(.onAppear))))
    await store.send(.path(.element(id: 1, action: .detail(.onAppear))))
    await store.send(.popToRootButtonTapped) {
      $0.path = []
    }
    await clock.advance(by: .seconds(3))
  }

  // The screens left keep their ids, so each keeps its own effects: a screen below a removed
  // one used to take the removed one's id, and with it that screen's timer, while its own was
  // cancelled.
  @Test func deletingAnItemClosesItsScreensAndOnlyTheirEffects() async {
    let clock = TestClock()
    let store = makeStore(
      path: [
        .detail(ItemDetail.State(item: apple)), .detail(ItemDetail.State(item: pear)),
        .edit(ItemEdit.State(item: apple)),
      ],
      clock: clock
    )
    await store.send(.path(.element(id: 0, action: .detail(.onAppear))))
    await store.send(.path(.element(id: 1, action: .detail(.onAppear))))
    await store.send(.itemDeleted(1)) {
      $0.items.remove(id: 1)
      $0.path.pop(from: 0)
      $0.path[id: 1] = .detail(ItemDetail.State(item: pear))
    }
    #expect(store.state.path.ids == [1])
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 1].detail.timerTicked) {
      $0.path[id: 1, case: \.detail]?.secondsOnScreen = 1
    }
    await store.send(.path(.popFrom(id: 1))) {
      $0.path = []
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func deepLinkStartsWithAPath() async {
    let store = makeStore(path: [
      .detail(ItemDetail.State(item: pear)), .edit(ItemEdit.State(item: pear)),
    ])
    #expect(store.state.path.ids == [0, 1])
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = []
    }
  }

  @Test func anActionForAMissingElementIsARuntimeIssue() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.path(.element(id: 7, action: .detail(.editButtonTapped))))
    } matching: { issue in
      issue.description.contains("received an action for a missing element.")
    }
  }
}

@MainActor
struct PresentationTests {
  func makeStore(clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Inbox> {
    TestStore(initialState: Inbox.State()) {
      Inbox()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aSheetThatDismissesItself() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.composeButtonTapped) {
      $0.destination = .compose(Compose.State())
    }
    await store.send(.destination(.presented(.compose(.set(\.text, "Hi"))))) {
      $0.destination = .compose(Compose.State(text: "Hi"))
    }
    await store.send(.destination(.presented(.compose(.sendButtonTapped)))) {
      $0.destination = .compose(Compose.State(text: "Hi", isSending: true))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.compose.delegate.sent, "Hi") {
      $0.messages = ["Hi"]
    }
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func dismissingTheSheetCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.composeButtonTapped) {
      $0.destination = .compose(Compose.State())
    }
    await store.send(.destination(.presented(.compose(.sendButtonTapped)))) {
      $0.destination = .compose(Compose.State(isSending: true))
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    // The message is never sent: the effect went away with the sheet.
    await clock.advance(by: .seconds(2))
  }

  @Test func presentingAnotherCancelsThePreviousEffects() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.composeButtonTapped) {
      $0.destination = .compose(Compose.State())
    }
    await store.send(.destination(.presented(.compose(.sendButtonTapped)))) {
      $0.destination = .compose(Compose.State(isSending: true))
    }
    await store.send(.clearButtonTapped) {
      $0.destination = .alert(.confirmClear)
    }
    await clock.advance(by: .seconds(2))
  }

  @Test func aFeatureThatPresentsItself() async {
    // `Folder.State` holds a `Folder.State?` of its own through `@Presents`: the presented child
    // lives in a box, as in TCA, so the type is finite.
    let store = TestStore(initialState: Folder.State(name: "root")) { Folder() }
    await store.send(.open("a")) {
      $0.child = Folder.State(name: "a")
    }
    await store.send(.child(.presented(.open("b")))) {
      $0.child?.child = Folder.State(name: "b")
    }
    await store.send(.child(.presented(.child(.presented(.rename("b2")))))) {
      $0.child?.child?.name = "b2"
    }
    await store.send(.child(.presented(.child(.dismiss)))) {
      $0.child?.child = nil
    }
    await store.send(.child(.dismiss)) {
      $0.child = nil
    }
  }

  @Test func aCopiedStateKeepsItsPresentedChild() {
    var original = Folder.State(name: "root")
    original.child = Folder.State(name: "a")
    let copy = original
    original.child?.name = "changed"
    original.$child = PresentationState(wrappedValue: nil)
    #expect(copy.child?.name == "a")
    #expect(original.child == nil)
  }

  @Test func alertButtonActionsReachTheParentAndCloseTheAlert() async {
    let store = TestStore(initialState: Inbox.State(messages: ["a", "b"])) { Inbox() }
    await store.send(.clearButtonTapped) {
      $0.destination = .alert(.confirmClear)
    }
    await store.send(.destination(.presented(.alert(.confirmClear)))) {
      $0.messages = []
      $0.destination = nil
    }
  }

  @Test func cancellingAnAlertOnlyDismissesIt() async {
    let store = TestStore(initialState: Inbox.State(messages: ["a"])) { Inbox() }
    await store.send(.clearButtonTapped) {
      $0.destination = .alert(.confirmClear)
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
  }

  @Test func aPlainAlertWithoutADestinationEnum() async {
    let store = TestStore(initialState: Deleter.State()) { Deleter() }
    await store.send(.deleteButtonTapped) {
      $0.alert = AlertState {
        TextState("Delete?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmDelete) { TextState("Delete") }
      }
    }
    await store.send(.alert(.presented(.confirmDelete))) {
      $0.isDeleted = true
      $0.alert = nil
    }
  }

  @Test func presentationActionWithNothingShownIsAnIssue() async {
    let store = TestStore(initialState: Deleter.State()) { Deleter() }
    await withKnownIssue {
      await store.send(.alert(.presented(.confirmDelete))) { $0.isDeleted = true }
    } matching: { issue in
      issue.description.contains("received a presentation action when destination state was absent")
    }
  }

  @Test func dismissOutsideAPresentedFeatureIsARuntimeIssue() async {
    @Dependency(\.dismiss) var dismiss
    await withKnownIssue {
      await dismiss()
    } matching: { issue in
      issue.description.contains("outside an effect of a presented or stacked feature")
    }
  }
}

struct StackStateTests {
  @Test func idsCountUpFromTheDependency() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var stack = StackState<String>()
      stack.append("a")
      stack.append("b")
      stack.append(contentsOf: ["c", "d"])
      #expect(stack.ids == [0, 1, 2, 3])
      #expect(stack[id: 2] == "c")
      #expect(stack.popLast() == "d")
      stack.removeLast(1)
      #expect(Array(stack) == ["a", "b"])
      // Ids are never reused.
      stack.append("e")
      #expect(stack.ids == [0, 1, 4])
    }
  }

  @Test func settingAnUnknownIdAppendsWithThatId() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var stack = StackState<String>()
      stack[id: 5] = "five"
      #expect(stack.ids == [5])
      stack.append("next")
      #expect(stack.ids == [5, 6])
      stack[id: 5] = nil
      #expect(stack.ids == [6])
    }
  }

  @Test func reorderingMovesEachElementsIdWithIt() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var stack: StackState<String> = ["a", "b", "c", "d"]
      stack.removeAll { $0 == "a" || $0 == "c" }
      #expect(stack.ids == [1, 3])
      #expect(stack[id: 1] == "b" && stack[id: 3] == "d")
      stack.append(contentsOf: ["e", "f"])
      stack.reverse()
      #expect(Array(stack) == ["f", "e", "d", "b"])
      #expect(stack.ids == [5, 4, 3, 1])
      stack.swapAt(0, 3)
      #expect(stack.ids == [1, 4, 3, 5])
      stack.sort()
      #expect(Array(stack) == ["b", "d", "e", "f"])
      #expect(stack.ids == [1, 3, 4, 5])
      _ = stack.partition { $0 < "e" }
      #expect(zip(stack.ids, stack).allSatisfy { id, element in stack[id: id] == element })
      #expect(Set(stack.ids) == [1, 3, 4, 5])
    }
  }

  @Test func popFromAndPopTo() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var stack: StackState<Int> = [10, 20, 30, 40]
      stack.pop(to: 1)
      #expect(Array(stack) == [10, 20])
      stack.pop(from: 1)
      #expect(Array(stack) == [10])
      stack.removeAll()
      #expect(stack.isEmpty)
    }
  }

  @Test func codableRoundTripKeepsTheElements() throws {
    try withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      let stack: StackState<String> = ["a", "b"]
      let data = try JSONEncoder().encode(stack)
      #expect(String(decoding: data, as: UTF8.self) == #"["a","b"]"#)
      let decoded = try JSONDecoder().decode(StackState<String>.self, from: data)
      #expect(Array(decoded) == ["a", "b"])
    }
  }

  @Test func anElementChangedByIdIsChangedWhereItIs() {
    struct Failure: Error {}
    func failing(_ items: inout [Int]) throws {
      items[1] = -1
      throw Failure()
    }
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      var stack: StackState<[Int]> = [[1], Array(0..<1_000), [3]]
      let buffer = { stack[id: 1]!.withUnsafeBufferPointer { $0.baseAddress } }
      let before = buffer()
      stack[id: 1]![0] = 7
      // Not copied out and back, which would have copied the list it holds.
      #expect(buffer() == before)
      #expect(stack.ids == [0, 1, 2])
      #expect(stack.map(\.first) == [1, 7, 3])
      // A change cut short by an error keeps the element where it was, as changed so far.
      #expect(throws: Failure.self) { try failing(&stack[id: 1]!) }
      #expect(stack.ids == [0, 1, 2])
      #expect(stack[id: 1]?[1] == -1)
      stack[id: 1] = nil
      #expect(stack.ids == [0, 2])
      #expect(Array(stack) == [[1], [3]])
    }
  }

  @Test func equalityIncludesIds() {
    withDependencies {
      $0.stackElementID = StackElementIDGenerator()
    } operation: {
      let first: StackState<String> = ["a"]
      let second: StackState<String> = ["a"]
      #expect(first != second)
      #expect(first == first)
    }
  }
}

struct BindingAndAlertTests {
  @Test func bindingActionsCompareFieldAndValue() {
    let a = BindingAction<ItemEdit.State>.set(\.draft, "x")
    #expect(a == .set(\.draft, "x"))
    #expect(a != .set(\.draft, "y"))
    #expect(a != .set(\.titleError, "x"))
    #expect(\ItemEdit.State.draft ~= a)
    #expect(!(\ItemEdit.State.titleError ~= a))
    var state = ItemEdit.State(item: Item(id: 1, title: "old"))
    a.apply(to: &state)
    #expect(state.draft == "x")
  }

  @Test func bindableActionsExposeTheirBinding() {
    let action = ItemEdit.Action.set(\.draft, "z")
    #expect(action.binding == .set(\.draft, "z"))
    #expect(ItemEdit.Action.saveButtonTapped.binding == nil)
  }

  @Test func alertsPrintForATerminalAndCompareWithoutTheirId() {
    let alert = AlertState<Inbox.Destination.Action.Alert>.confirmClear
    #expect(alert.description == "Clear all messages?\nThis cannot be undone.\n[! Clear] [Cancel]")
    #expect(alert == .confirmClear)
    #expect(AlertState<Never> { TextState("Saved") }.description == "Saved\n[OK]")
    let dialog = ConfirmationDialogState<Int>(titleVisibility: .hidden) {
      TextState("Hidden")
    } actions: {
      ButtonState(action: 1) { "One" }
      ButtonState(role: .cancel) { "Cancel" }
    }
    #expect(dialog.description == "[One] [Cancel]")
    #expect(dialog.buttons.map(\.action.action) == [1, nil])
  }

  @Test func alertActionsMapIntoAParentAction() {
    let alert = AlertState<Inbox.Destination.Action.Alert>.confirmClear
      .map(Inbox.Destination.Action.alert)
    #expect(alert.buttons.first?.action.action == .alert(.confirmClear))
  }
}

/// A feature that presents another of itself, as a file browser opens a folder inside a folder.
@Reducer
struct Folder {
  struct State: Equatable {
    var name: String
    @Presents var child: State?
  }

  enum Action: Equatable {
    case open(String)
    case rename(String)
    indirect case child(PresentationAction<Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open(let name):
        state.child = State(name: name)
      case .rename(let name):
        state.name = name
      case .child:
        break
      }
      return .none
    }
    .ifLet(\.$child, action: \.child) { Folder() }
  }
}

/// Presentation of an enum reducer written with `@Reducer enum`, whose state answers for its own
/// case whether it is an alert (no reflection on each action).
@MainActor
struct EnumDestinationTests {
  @Test func eachCaseAnswersWhetherItIsAnAlertOrDialog() {
    typealias State = Library.Destination.State
    #expect(State.alert(.removeAll)._$isEphemeral)
    #expect(State.dialog(ConfirmationDialogState { TextState("Sort") })._$isEphemeral)
    #expect(!State.counter(Library.Counter.State())._$isEphemeral)
    #expect(!State.note("a", pinned: true)._$isEphemeral)
    #expect(!State.empty._$isEphemeral)
    #expect(State.settings(.alert(.resetAll))._$isEphemeral)
    #expect(!State.settings(.counter(Library.Counter.State()))._$isEphemeral)
  }

  @Test func aChildCaseStaysPresentedAfterItsAction() async {
    let store = TestStore(initialState: Library.State(destination: .counter(.init()))) {
      Library()
    }
    await store.send(.destination(.presented(.counter(.increment)))) {
      $0.destination = .counter(.init(count: 1))
    }
  }

  @Test func anAlertCaseClosesOnceItsButtonIsTapped() async {
    let store = TestStore(initialState: Library.State(destination: .alert(.removeAll))) {
      Library()
    }
    await store.send(.destination(.presented(.alert(.confirm)))) {
      $0.destination = nil
      $0.removals = 1
    }
  }

  @Test func anAlertInsideANestedEnumDestinationClosesToo() async {
    let store = TestStore(
      initialState: Library.State(destination: .settings(.alert(.resetAll)))
    ) {
      Library()
    }
    await store.send(.destination(.presented(.settings(.alert(.confirm))))) {
      $0.destination = nil
    }
  }
}

@Reducer
struct Library {
  @Reducer
  struct Counter {
    struct State: Equatable {
      var count = 0
    }

    enum Action: Equatable {
      case increment
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  @Reducer(state: .equatable, action: .equatable)
  enum Settings {
    case counter(Counter)
    case alert(AlertState<Confirmation>)
  }

  @Reducer(state: .equatable, action: .equatable)
  enum Destination {
    case counter(Counter)
    // An enum reducer has no instance to make: its case runs the enum's body.
    case settings(Settings.Body = Settings.body)
    case alert(AlertState<Confirmation>)
    case dialog(ConfirmationDialogState<Confirmation>)
    @ReducerCaseIgnored
    case note(String, pinned: Bool)
    case empty
  }

  enum Confirmation: Equatable {
    case confirm
  }

  struct State: Equatable {
    var removals = 0
    @Presents var destination: Destination.State?
  }

  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .destination(.presented(.alert(.confirm))) = action { state.removals += 1 }
      return .none
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension AlertState where Action == Library.Confirmation {
  static let removeAll = AlertState {
    TextState("Remove all?")
  } actions: {
    ButtonState(action: .confirm) { TextState("Remove") }
  }
  static let resetAll = AlertState {
    TextState("Reset all?")
  } actions: {
    ButtonState(action: .confirm) { TextState("Reset") }
  }
}
