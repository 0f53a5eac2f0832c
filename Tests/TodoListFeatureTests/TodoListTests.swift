import ComposableCore
import ComposableTestSupport
import Foundation
import Testing
import TodoListFeature
import TodosClient

let day = Date(timeIntervalSince1970: 1_700_000_000)

func item(_ n: Int, _ title: String, done: Bool = false) -> TodoItem {
  TodoItem(id: UUID(n), title: title, isCompleted: done, createdAt: day)
}

/// A todos client that records the changes it was asked to save, and fails when told to.
final class RecordingTodos: Sendable {
  let stored: [TodoItem]
  let changes = LockIsolated<[TodoChange]>([])
  let failSaves = LockIsolated(false)
  let loadError = LockIsolated<TodosError?>(nil)

  init(_ stored: [TodoItem] = []) {
    self.stored = stored
  }

  var client: TodosClient {
    TodosClient(
      load: {
        if let error = self.loadError.value { throw error }
        return self.stored
      },
      apply: { change in
        if self.failSaves.value { throw TodosError.unwritable("disk full") }
        self.changes.withValue { $0.append(change) }
      },
      changes: { .finished }
    )
  }
}

@MainActor
struct TodoListTests {
  func makeStore(
    _ state: TodoList.State = TodoList.State(hasLoaded: true),
    todos: RecordingTodos = RecordingTodos(),
    clock: TestClock<Duration> = TestClock()
  ) -> TestStoreOf<TodoList> {
    TestStore(initialState: state) {
      TodoList()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(day)
      $0.uuid = .incrementing
      $0.todosClient = todos.client
    }
  }

  // MARK: Loading

  @Test func aRowActionForAMissingTodoIsReported() async {
    let store = makeStore(TodoList.State(todos: [item(1, "Buy milk")], hasLoaded: true))
    await withKnownIssue {
      await store.send(.todos(.element(id: UUID(9), action: .toggleCompletionButtonTapped)))
    } matching: { issue in
      issue.description.contains("not in the list")
    }
  }

  @Test func loadsOnFirstAppearOnly() async {
    let todos = RecordingTodos([item(1, "Milk"), item(2, "Eggs", done: true)])
    let store = makeStore(TodoList.State(), todos: todos)
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.todos = [item(1, "Milk"), item(2, "Eggs", done: true)]
    }
    await store.send(.onAppear)
    #expect(store.state.activeCount == 1)
  }

  @Test func aLoadFailureShowsAnAlertWithRetry() async {
    let todos = RecordingTodos([item(1, "Milk")])
    todos.loadError.setValue(.corrupt(keptAt: "/data/todos.json.corrupt-20261122T050000Z"))
    let store = makeStore(TodoList.State(), todos: todos)
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.loadResponse.failure) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.alert = .failure(
        title: "Could not load your todos",
        message: TextState(
          "The todo file could not be read. It was kept as "
            + "/data/todos.json.corrupt-20261122T050000Z; a new list was started."
        ),
        retry: .retryLoadButtonTapped
      )
    }
    todos.loadError.setValue(nil)
    await store.send(\.alert.retryLoadButtonTapped) {
      $0.alert = nil
      $0.isLoading = true
    }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.todos = [item(1, "Milk")]
    }
  }

  @Test func aDuplicatedLoadedTodoKeepsItsFirstCopy() async {
    let store = makeStore(
      TodoList.State(),
      todos: RecordingTodos([item(1, "Milk"), item(2, "Eggs"), item(1, "Milk again")])
    )
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.todos = [item(1, "Milk"), item(2, "Eggs")]
    }
  }

  @Test func aTodoAddedWhileLoadingSurvivesTheLoad() async {
    let clock = TestClock()
    let todos = RecordingTodos([item(1, "Milk")])
    let store = TestStore(initialState: TodoList.State()) {
      TodoList()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(day)
      $0.uuid = .incrementing
      $0.todosClient = TodosClient(
        load: {
          try await clock.sleep(for: .seconds(1))
          return todos.stored
        },
        apply: todos.client.apply,
        changes: { .finished }
      )
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.send(.set(\.newTitle, "Eggs")) { $0.newTitle = "Eggs" }
    let eggs = TodoItem(id: UUID(0), title: "Eggs", createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos = [eggs]
      $0.newTitle = ""
      $0.unsavedChanges = [.init(.add(eggs), rollback: .remove(id: UUID(0)))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await clock.advance(by: .seconds(1))
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.todos = [item(1, "Milk"), TodoItem(id: UUID(0), title: "Eggs", createdAt: day)]
    }
  }

  // MARK: Adding

  @Test func addingATodo() async {
    let todos = RecordingTodos()
    let store = makeStore(todos: todos)
    await store.send(.set(\.newTitle, "  Buy milk ")) { $0.newTitle = "  Buy milk " }
    await store.send(.set(\.newPriority, .high)) { $0.newPriority = .high }
    let milk = TodoItem(id: UUID(0), title: "Buy milk", priority: .high, createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos = [milk]
      $0.newTitle = ""
      $0.unsavedChanges = [.init(.add(milk), rollback: .remove(id: UUID(0)))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(todos.changes.value == [.add(milk)])
  }

  @Test func anAcceptedTitleClosesTheFieldARefusedOneNot() async {
    let store = makeStore()
    await store.send(.set(\.focus, .newTitle)) { $0.focus = .newTitle }
    await store.send(.addButtonTapped) { $0.newTitleError = "A todo needs a title." }
    await store.send(.set(\.newTitle, "Eggs")) {
      $0.newTitle = "Eggs"
      $0.newTitleError = nil
    }
    let eggs = TodoItem(id: UUID(0), title: "Eggs", createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos = [eggs]
      $0.newTitle = ""
      $0.focus = nil
      $0.unsavedChanges = [.init(.add(eggs), rollback: .remove(id: UUID(0)))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
  }

  @Test func aNewTodoGoesAboveTheDoneOnes() async {
    let todos = RecordingTodos()
    let store = makeStore(
      TodoList.State(
        todos: [item(1, "a"), item(2, "b", done: true)], newTitle: "c", hasLoaded: true),
      todos: todos)
    let c = TodoItem(id: UUID(0), title: "c", createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos = [item(1, "a"), c, item(2, "b", done: true)]
      $0.newTitle = ""
      $0.unsavedChanges = [.init(.add(c, before: UUID(2)), rollback: .remove(id: UUID(0)))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    // Stored in the same place.
    var stored = [item(1, "a"), item(2, "b", done: true)]
    for change in todos.changes.value { change.apply(to: &stored) }
    #expect(stored == [item(1, "a"), c, item(2, "b", done: true)])
  }

  @Test func anEmptyOrBlankTitleIsRejectedWithAMessage() async {
    let store = makeStore()
    await store.send(.addButtonTapped) { $0.newTitleError = "A todo needs a title." }
    await store.send(.set(\.newTitle, "   ")) {
      $0.newTitle = "   "
      $0.newTitleError = nil
    }
    await store.send(.addButtonTapped) { $0.newTitleError = "A todo needs a title." }
  }

  // MARK: Changes made elsewhere

  @Test func theListFollowsTheStoredTodosAsTheyChange() async {
    let stored = LockIsolated([item(1, "a"), item(2, "b")])
    let (changes, announce) = AsyncStream.makeStream(of: Void.self)
    let store = TestStore(initialState: TodoList.State()) {
      TodoList()
    } withDependencies: {
      $0.continuousClock = TestClock()
      $0.todosClient = TodosClient(
        load: { stored.value },
        apply: { change in stored.withValue { change.apply(to: &$0) } },
        changes: { changes }
      )
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.todos = [item(1, "a"), item(2, "b")]
    }
    // Another process deletes b and adds c.
    stored.setValue([item(1, "a"), item(3, "c")])
    announce.yield()
    await store.receive(\.storedTodosChanged) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.todos = [item(1, "a"), item(3, "c")]
    }
    // The watch ends with its stream.
    announce.finish()
    await store.finish()
  }

  @Test func aReloadKeepsTheChangesNotSavedYet() async {
    let clock = TestClock()
    let stored = LockIsolated([item(1, "a")])
    let store = TestStore(initialState: TodoList.State(todos: [item(1, "a")], hasLoaded: true)) {
      TodoList()
    } withDependencies: {
      $0.continuousClock = clock
      $0.todosClient = TodosClient(
        load: { stored.value },
        apply: { change in
          try await clock.sleep(for: .seconds(1))
          stored.withValue { change.apply(to: &$0) }
        },
        changes: { .finished }
      )
    }
    await store.send(\.todos[id: UUID(1)].toggleCompletionButtonTapped) {
      $0.todos[id: UUID(1)]?.isCompleted = true
      $0.unsavedChanges = [.init(.setCompleted(id: UUID(1), true), rollback: .row(item(1, "a")))]
      $0.isSortPending = true
    }
    // Another process adds b while the toggle is still being saved.
    stored.withValue { $0.append(item(2, "b")) }
    await store.send(.storedTodosChanged) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.todos = [item(1, "a", done: true), item(2, "b")]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await store.receive(\.sortCompletedTodos) {
      $0.isSortPending = false
      $0.todos = [item(2, "b"), item(1, "a", done: true)]
      $0.unsavedChanges = [
        .init(
          .reorder(ids: [UUID(2), UUID(1)]),
          rollback: .list([item(1, "a", done: true), item(2, "b")]))
      ]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
  }

  // MARK: Row edits

  @Test func togglingSavesAndSortsDoneTodosASecondLater() async {
    let clock = TestClock()
    let todos = RecordingTodos()
    let store = makeStore(
      TodoList.State(todos: [item(1, "a"), item(2, "b")], hasLoaded: true),
      todos: todos,
      clock: clock
    )
    await store.send(\.todos[id: UUID(1)].toggleCompletionButtonTapped) {
      $0.todos[id: UUID(1)]?.isCompleted = true
      $0.unsavedChanges = [.init(.setCompleted(id: UUID(1), true), rollback: .row(item(1, "a")))]
      $0.isSortPending = true
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await clock.advance(by: .milliseconds(999))
    await clock.advance(by: .milliseconds(1))
    await store.receive(\.sortCompletedTodos) {
      $0.isSortPending = false
      $0.todos = [item(2, "b"), item(1, "a", done: true)]
      $0.unsavedChanges = [
        .init(
          .reorder(ids: [UUID(2), UUID(1)]),
          rollback: .list([item(1, "a", done: true), item(2, "b")]))
      ]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(
      todos.changes.value == [.setCompleted(id: UUID(1), true), .reorder(ids: [UUID(2), UUID(1)])]
    )
  }

  @Test func quickSuccessiveTogglesSortOnce() async {
    let clock = TestClock()
    let todos = RecordingTodos()
    let store = makeStore(
      TodoList.State(todos: [item(1, "a"), item(2, "b"), item(3, "c")], hasLoaded: true),
      todos: todos,
      clock: clock
    )
    await store.send(\.todos[id: UUID(1)].toggleCompletionButtonTapped) {
      $0.todos[id: UUID(1)]?.isCompleted = true
      $0.unsavedChanges = [.init(.setCompleted(id: UUID(1), true), rollback: .row(item(1, "a")))]
      $0.isSortPending = true
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await clock.advance(by: .milliseconds(500))
    await store.send(\.todos[id: UUID(2)].toggleCompletionButtonTapped) {
      $0.todos[id: UUID(2)]?.isCompleted = true
      $0.unsavedChanges = [.init(.setCompleted(id: UUID(2), true), rollback: .row(item(2, "b")))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await clock.advance(by: .seconds(1))
    let toggled = [item(1, "a", done: true), item(2, "b", done: true), item(3, "c")]
    await store.receive(\.sortCompletedTodos) {
      $0.isSortPending = false
      $0.todos = [item(3, "c"), item(1, "a", done: true), item(2, "b", done: true)]
      $0.unsavedChanges = [
        .init(
          .reorder(ids: [UUID(3), UUID(1), UUID(2)]),
          rollback: .list(IdentifiedArray(uniqueElements: toggled)))
      ]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(todos.changes.value.filter { if case .reorder = $0 { true } else { false } }.count == 1)
  }

  @Test func renamingAndReprioritisingAreSaved() async {
    let todos = RecordingTodos()
    let store = makeStore(TodoList.State(todos: [item(1, "a")], hasLoaded: true), todos: todos)
    await store.send(\.todos[id: UUID(1)].titleChanged, "A") {
      $0.todos[id: UUID(1)]?.title = "A"
      $0.unsavedChanges = [.init(.setTitle(id: UUID(1), "A"), rollback: .row(item(1, "a")))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await store.send(\.todos[id: UUID(1)].priorityChanged, .low) {
      $0.todos[id: UUID(1)]?.priority = .low
      $0.unsavedChanges = [.init(.setPriority(id: UUID(1), .low), rollback: .row(item(1, "A")))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(todos.changes.value == [.setTitle(id: UUID(1), "A"), .setPriority(id: UUID(1), .low)])
  }

  // MARK: Deleting and moving

  @Test func deletingOneAndClearingCompleted() async {
    let todos = RecordingTodos()
    let store = makeStore(
      TodoList.State(
        todos: [item(1, "a"), item(2, "b", done: true), item(3, "c", done: true)],
        hasLoaded: true
      ),
      todos: todos
    )
    let all = store.state.todos
    await store.send(.deleteButtonTapped(id: UUID(1))) {
      $0.todos.remove(id: UUID(1))
      $0.unsavedChanges = [.init(.delete(ids: [UUID(1)]), rollback: .list(all))]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await store.send(.clearCompletedButtonTapped) {
      $0.todos = []
      $0.unsavedChanges = [
        .init(.delete(ids: [UUID(2), UUID(3)]), rollback: .list([all[1], all[2]]))
      ]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    // Nothing left to clear: nothing to save either.
    await store.send(.clearCompletedButtonTapped)
    #expect(todos.changes.value == [.delete(ids: [UUID(1)]), .delete(ids: [UUID(2), UUID(3)])])
  }

  @Test func movingReordersAndSaves() async {
    let todos = RecordingTodos()
    let store = makeStore(
      TodoList.State(todos: [item(1, "a"), item(2, "b"), item(3, "c")], hasLoaded: true),
      todos: todos
    )
    await store.send(.move(fromOffsets: [0], toOffset: 3)) {
      $0.todos = [item(2, "b"), item(3, "c"), item(1, "a")]
      $0.unsavedChanges = [
        .init(
          .reorder(ids: [UUID(2), UUID(3), UUID(1)]),
          rollback: .list([item(1, "a"), item(2, "b"), item(3, "c")]))
      ]
    }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    await store.send(.move(fromOffsets: [1], toOffset: 1))
    #expect(todos.changes.value == [.reorder(ids: [UUID(2), UUID(3), UUID(1)])])
  }

  @Test func aMoveOutsideTheListMovesNothingAndSaysSo() async {
    let todos = RecordingTodos()
    let store = makeStore(
      TodoList.State(todos: [item(1, "a"), item(2, "b")], hasLoaded: true), todos: todos)
    // Offsets of a longer list, as a script or a list changed meanwhile may send: this trapped.
    for (source, destination): (IndexSet, Int) in [([0], 3), ([2], 0), ([0, 5], 1)] {
      await withKnownIssue {
        await store.send(.move(fromOffsets: source, toOffset: destination))
      } matching: { issue in
        issue.description.contains("nothing was moved")
      }
    }
    #expect(todos.changes.value.isEmpty)
  }

  // MARK: Filtering and searching

  @Test func filterAndDebouncedSearchDeriveTheVisibleList() async {
    let clock = TestClock()
    let store = makeStore(
      TodoList.State(
        todos: [item(1, "Buy milk"), item(2, "Buy eggs", done: true), item(3, "Call mum")],
        hasLoaded: true
      ),
      clock: clock
    )
    await store.send(.filterSelected(.active)) { $0.$filter.withLock { $0 = .active } }
    #expect(store.state.visibleTodos.map(\.title) == ["Buy milk", "Call mum"])
    await store.send(.set(\.searchQuery, "b")) { $0.searchQuery = "b" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.set(\.searchQuery, "BUY")) { $0.searchQuery = "BUY" }
    // Typing has not paused long enough: the list is unchanged.
    #expect(store.state.visibleTodos.count == 2)
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.searchQueryDebounced) { $0.appliedSearchQuery = "BUY" }
    #expect(store.state.visibleTodos.map(\.title) == ["Buy milk"])
    await store.send(.filterSelected(.completed)) { $0.$filter.withLock { $0 = .completed } }
    #expect(store.state.visibleTodos.map(\.title) == ["Buy eggs"])
    await store.send(.filterSelected(.all)) { $0.$filter.withLock { $0 = .all } }
    #expect(store.state.visibleTodos.map(\.title) == ["Buy milk", "Buy eggs"])
  }

  // MARK: Failed saves

  @Test func aFailedSaveRollsTheChangeBackAndSaysSo() async {
    let todos = RecordingTodos()
    todos.failSaves.setValue(true)
    let store = makeStore(TodoList.State(todos: [item(1, "a")], hasLoaded: true), todos: todos)
    let unsaved = AlertState<TodoList.Action.Alert> {
      TextState("Your change was not saved")
    } message: {
      TextState("Your change could not be saved: disk full")
    }
    await store.send(.deleteButtonTapped(id: UUID(1))) {
      $0.todos = []
      $0.unsavedChanges = [.init(.delete(ids: [UUID(1)]), rollback: .list([item(1, "a")]))]
    }
    await store.receive(\.saveFailed) {
      $0.todos = [item(1, "a")]
      $0.unsavedChanges = []
      $0.alert = unsaved
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(\.todos[id: UUID(1)].titleChanged, "renamed") {
      $0.todos[id: UUID(1)]?.title = "renamed"
      $0.unsavedChanges = [.init(.setTitle(id: UUID(1), "renamed"), rollback: .row(item(1, "a")))]
    }
    await store.receive(\.saveFailed) {
      $0.todos[id: UUID(1)]?.title = "a"
      $0.unsavedChanges = []
      $0.alert = unsaved
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.set(\.newTitle, "new")) { $0.newTitle = "new" }
    let new = TodoItem(id: UUID(0), title: "new", createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos.append(new)
      $0.newTitle = ""
      $0.unsavedChanges = [.init(.add(new), rollback: .remove(id: UUID(0)))]
    }
    await store.receive(\.saveFailed) {
      $0.todos = [item(1, "a")]
      $0.unsavedChanges = []
      $0.alert = unsaved
    }
    #expect(todos.changes.value.isEmpty)
  }

  // MARK: Saving in order

  /// A client over a list in memory whose adds take a second of `clock`, and fail when told to:
  /// a slow disk under the first change.
  func slowAdds(
    _ stored: LockIsolated<[TodoItem]>, clock: TestClock<Duration>, fail: Bool = false
  ) -> TodosClient {
    TodosClient(
      load: { stored.value },
      apply: { change in
        if case .add = change { try await clock.sleep(for: .seconds(1)) }
        if fail { throw TodosError.unwritable("disk full") }
        stored.withValue { change.apply(to: &$0) }
      },
      changes: { .finished }
    )
  }

  @Test func changesAreSavedOneAtATimeInTheOrderTheyWereMade() async {
    let clock = TestClock()
    let stored = LockIsolated<[TodoItem]>([])
    let store = TestStore(initialState: TodoList.State(newTitle: "Buy milk", hasLoaded: true)) {
      TodoList()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(day)
      $0.uuid = .incrementing
      $0.todosClient = slowAdds(stored, clock: clock)
    }
    let milk = TodoItem(id: UUID(0), title: "Buy milk", createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos = [milk]
      $0.newTitle = ""
      $0.unsavedChanges = [.init(.add(milk), rollback: .remove(id: UUID(0)))]
    }
    // Renamed while the add is still being saved: the rename waits for it, rather than
    // reaching the file first and finding no such todo.
    await store.send(\.todos[id: UUID(0)].titleChanged, "Buy oat milk") {
      $0.todos[id: UUID(0)]?.title = "Buy oat milk"
      $0.unsavedChanges.append(.init(.setTitle(id: UUID(0), "Buy oat milk"), rollback: .row(milk)))
    }
    #expect(stored.value.isEmpty)
    await clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges.removeFirst() }
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(stored.value == [TodoItem(id: UUID(0), title: "Buy oat milk", createdAt: day)])
  }

  @Test func aFailedSaveUndoesTheChangesMadeAfterIt() async {
    let clock = TestClock()
    let stored = LockIsolated([item(1, "a")])
    let store = TestStore(
      initialState: TodoList.State(todos: [item(1, "a")], newTitle: "b", hasLoaded: true)
    ) {
      TodoList()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date = .constant(day)
      $0.uuid = .incrementing
      $0.todosClient = slowAdds(stored, clock: clock, fail: true)
    }
    let b = TodoItem(id: UUID(0), title: "b", createdAt: day)
    await store.send(.addButtonTapped) {
      $0.todos.append(b)
      $0.newTitle = ""
      $0.unsavedChanges = [.init(.add(b), rollback: .remove(id: UUID(0)))]
    }
    await store.send(\.todos[id: UUID(1)].titleChanged, "A") {
      $0.todos[id: UUID(1)]?.title = "A"
      $0.unsavedChanges.append(.init(.setTitle(id: UUID(1), "A"), rollback: .row(item(1, "a"))))
    }
    await store.send(.deleteButtonTapped(id: UUID(0))) {
      $0.todos.remove(id: UUID(0))
      $0.unsavedChanges.append(
        .init(
          .delete(ids: [UUID(0)]),
          rollback: .list([TodoItem(id: UUID(1), title: "A", createdAt: day), b])))
    }
    await clock.advance(by: .seconds(1))
    // The list is left as it is stored, and says how much was not saved.
    await store.receive(\.saveFailed) {
      $0.todos = [item(1, "a")]
      $0.unsavedChanges = []
      $0.alert = AlertState {
        TextState("Your last 3 changes were not saved")
      } message: {
        TextState("Your change could not be saved: disk full")
      }
    }
    #expect(stored.value == [item(1, "a")])
  }
}
