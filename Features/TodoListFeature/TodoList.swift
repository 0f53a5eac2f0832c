import ComposableCore
import Foundation
import StoredList
import TodosClient

/// A todo list a person can trust with their data: add, toggle, rename, prioritise, delete,
/// clear completed and reorder; filter and search; every change saved through `TodosClient`, and
/// rolled back with an alert when saving fails.
@Reducer
public struct TodoList: Sendable {
  /// The list screen.
  @ObservableState
  public struct State: Equatable {
    /// Every todo, in stored order.
    public var todos: IdentifiedArrayOf<TodoItem>
    // Set by the initialiser only, as `Counter.State.timerInterval` is.
    /// Which todos show: a preference, kept across launches.
    @Shared public var filter: Filter
    /// The search field, as typed.
    public var searchQuery: String
    /// The search the list applies: the field's text once typing pauses.
    public var appliedSearchQuery: String
    /// The title of the todo being added.
    public var newTitle: String
    /// The priority of the todo being added.
    public var newPriority: TodoItem.Priority
    /// Why the last add was refused.
    public var newTitleError: String?
    /// The field being typed into, if any: an add that succeeds closes the new-todo field, one
    /// that is refused leaves it open to show why.
    public var focus: Field?
    /// Whether the stored todos are being loaded.
    public var isLoading: Bool
    /// Whether the stored todos have been loaded once.
    public var hasLoaded: Bool
    /// Changes the list shows that are not saved yet, oldest first; the first is being saved.
    /// Saving one at a time, in the order they were made, keeps a later change from reaching
    /// the file before an earlier one (a toggle before the add of its todo would be lost).
    public var unsavedChanges: [UnsavedChange]
    /// Whether done todos are still to sink below active ones, a second after the last toggle:
    /// the new order is a change not saved yet, which quitting waits for.
    public var isSortPending: Bool
    /// A failure to load or save.
    @Presents public var alert: AlertState<Action.Alert>?

    /// A list, empty unless given todos.
    public init(
      todos: IdentifiedArrayOf<TodoItem> = [],
      filter: Filter = .all,
      searchQuery: String = "",
      appliedSearchQuery: String = "",
      newTitle: String = "",
      newPriority: TodoItem.Priority = .medium,
      newTitleError: String? = nil,
      focus: Field? = nil,
      isLoading: Bool = false,
      hasLoaded: Bool = false,
      unsavedChanges: [UnsavedChange] = [],
      isSortPending: Bool = false,
      alert: AlertState<Action.Alert>? = nil
    ) {
      self.todos = todos
      self._filter = Shared(wrappedValue: filter, .appStorage("todos.filter"))
      self.searchQuery = searchQuery
      self.appliedSearchQuery = appliedSearchQuery
      self.newTitle = newTitle
      self.newPriority = newPriority
      self.newTitleError = newTitleError
      self.focus = focus
      self.isLoading = isLoading
      self.hasLoaded = hasLoaded
      self.unsavedChanges = unsavedChanges
      self.isSortPending = isSortPending
      self.alert = alert
    }

    /// The todos that show: those the filter keeps whose title contains the applied search,
    /// ignoring case.
    public var visibleTodos: IdentifiedArrayOf<TodoItem> {
      visibleTodos(filteredBy: filter)
    }

    /// The todos another filter would show, with the applied search, leaving the preference as
    /// it is.
    public func visibleTodos(filteredBy filter: Filter) -> IdentifiedArrayOf<TodoItem> {
      let query = appliedSearchQuery.trimmingCharacters(in: .whitespaces)
      return todos.filter { todo in
        filter.includes(todo)
          && (query.isEmpty || todo.title.range(of: query, options: .caseInsensitive) != nil)
      }
    }

    /// How many todos are not done yet.
    public var activeCount: Int { todos.count { !$0.isCompleted } }
  }

  /// A text field of the list.
  public enum Field: String, Codable, Hashable, Sendable {
    /// The new todo's title.
    case newTitle
    /// The search query.
    case search
  }

  /// Which todos the list shows.
  public enum Filter: String, CaseIterable, Codable, Equatable, Sendable {
    /// Every todo.
    case all
    /// Todos not done yet.
    case active
    /// Done todos.
    case completed

    /// Whether the filter keeps `todo`.
    public func includes(_ todo: TodoItem) -> Bool {
      switch self {
      case .all: true
      case .active: !todo.isCompleted
      case .completed: todo.isCompleted
      }
    }
  }

  /// What happens on the list.
  public enum Action: Equatable, Codable, BindableAction {
    /// The list appeared: loads the stored todos the first time, and from then on whenever
    /// they change.
    case onAppear
    /// The stored todos changed, perhaps in another process: loads them again.
    case storedTodosChanged
    /// The stored todos, or why they could not be read.
    case loadResponse(Result<[TodoItem], TodosError>)
    /// The search or new-todo fields changed.
    case binding(BindingAction<State>)
    /// A filter was chosen.
    case filterSelected(Filter)
    /// Adds a todo from the new-todo fields.
    case addButtonTapped
    /// A row's action.
    case todos(IdentifiedActionOf<Todo>)
    /// Deletes one todo.
    case deleteButtonTapped(id: TodoItem.ID)
    /// Deletes every completed todo.
    case clearCompletedButtonTapped
    /// Moves todos, as a list's drag or the app's move keys do.
    case move(fromOffsets: IndexSet, toOffset: Int)
    /// The search field has been still long enough to apply.
    case searchQueryDebounced
    /// Completed todos sink below active ones, a second after the last toggle.
    case sortCompletedTodos
    /// The oldest unsaved change was saved.
    case saved
    /// The oldest unsaved change could not be saved; the list goes back to how it is stored.
    case saveFailed(TodosError)
    /// The alert's buttons.
    case alert(PresentationAction<Alert>)

    /// The buttons of the failure alerts.
    @CasePathable
    public enum Alert: Equatable, Codable, Sendable {
      /// Loads the stored todos again.
      case retryLoadButtonTapped
    }
  }

  /// How to undo a change whose save failed. Row edits keep only the old row, so a toggle in a
  /// list of 100 000 todos copies one todo, not the list.
  public enum Rollback: Equatable, Codable, Sendable {
    /// Put this version of a row back.
    case row(TodoItem)
    /// Remove a todo that was added.
    case remove(id: TodoItem.ID)
    /// Put the whole list back, after a change that touched many todos.
    case list(IdentifiedArrayOf<TodoItem>)
  }

  /// A change waiting to be saved, with how to undo it if saving fails.
  public struct UnsavedChange: Equatable, Sendable {
    /// What to apply to the stored todos.
    public var change: TodoChange
    /// How the list goes back if it cannot be saved.
    public var rollback: Rollback

    /// A change and its undoing.
    public init(_ change: TodoChange, rollback: Rollback) {
      self.change = change
      self.rollback = rollback
    }
  }

  enum CancelID {
    case changes
    case load
    case search
    case sort
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.todosClient) var todosClient
  @Dependency(\.uuid) var uuid

  /// A todo list reducer.
  public init() {}

  /// The list's logic.
  public var body: some ReducerOf<Self> {
    BindingReducer()
    // Rows run here, not in `forEach` (which runs them first): an undo needs the row as it was.
    Reduce { state, action in
      guard case .todos(.element(let id, let rowAction)) = action else { return .none }
      guard let before = state.todos[id: id] else {
        // What `forEach` says of an action for a row that is gone.
        reportIssue("A row action was sent for todo \(id), which is not in the list: \(rowAction)")
        return .none
      }
      var todo = before
      // A row's reducer only edits its todo; it starts no effects.
      _ = Todo().reduce(into: &todo, action: rowAction)
      state.todos[id: id] = todo
      switch rowAction {
      case .toggleCompletionButtonTapped:
        state.isSortPending = true
        return .merge(
          save(.setCompleted(id: id, todo.isCompleted), rollback: .row(before), &state),
          .send(.sortCompletedTodos).debounce(id: CancelID.sort, for: .seconds(1), clock: clock)
        )
      case .titleChanged:
        return save(.setTitle(id: id, todo.title), rollback: .row(before), &state)
      case .priorityChanged:
        return save(.setPriority(id: id, todo.priority), rollback: .row(before), &state)
      }
    }
    Reduce { state, action in
      switch action {
      case .onAppear:
        guard !state.hasLoaded, !state.isLoading else { return .none }
        return .merge(
          load(&state),
          .run { send in
            for await _ in todosClient.changes() { await send(.storedTodosChanged) }
          }
          .cancellable(id: CancelID.changes, cancelInFlight: true)
        )

      case .storedTodosChanged:
        return load(&state)

      case .loadResponse(.success(let todos)):
        let isFirstLoad = !state.hasLoaded
        state.isLoading = false
        state.hasLoaded = true
        let merged = IdentifiedArray(
          loaded: todos, replaying: state.unsavedChanges.map(\.change),
          keepingUnstoredFrom: isFirstLoad ? state.todos : nil)
        if merged != state.todos { state.todos = merged }
        return .none

      case .loadResponse(.failure(let error)):
        state.isLoading = false
        state.hasLoaded = true
        state.alert = .failure(
          title: "Could not load your todos",
          message: TextState(error.errorDescription ?? "Something went wrong."),
          retry: .retryLoadButtonTapped
        )
        return .none

      case .alert(.presented(.retryLoadButtonTapped)):
        return load(&state)

      case .binding(\.searchQuery):
        return .send(.searchQueryDebounced)
          .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)

      case .binding(\.newTitle):
        state.newTitleError = nil
        return .none

      case .binding:
        return .none

      case .filterSelected(let filter):
        state.$filter.withLock { $0 = filter }
        return .none

      case .searchQueryDebounced:
        state.appliedSearchQuery = state.searchQuery
        return .none

      case .addButtonTapped:
        let title = state.newTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else {
          state.newTitleError = "A todo needs a title."
          return .none
        }
        let todo = TodoItem(id: uuid(), title: title, priority: state.newPriority, createdAt: now)
        // Above the done todos, where the next sort would move it.
        let place = state.todos.firstIndex(where: \.isCompleted) ?? state.todos.endIndex
        let next = place < state.todos.endIndex ? state.todos[place].id : nil
        state.todos.insert(todo, at: place)
        state.newTitle = ""
        state.newTitleError = nil
        state.focus = nil
        return save(.add(todo, before: next), rollback: .remove(id: todo.id), &state)

      case .todos:
        return .none

      case .deleteButtonTapped(let id):
        guard state.todos[id: id] != nil else { return .none }
        let previous = state.todos
        state.todos.remove(id: id)
        return save(.delete(ids: [id]), rollback: .list(previous), &state)

      case .clearCompletedButtonTapped:
        let completed = state.todos.filter(\.isCompleted).map(\.id)
        guard !completed.isEmpty else { return .none }
        let previous = state.todos
        state.todos.removeAll { $0.isCompleted }
        return save(.delete(ids: completed), rollback: .list(previous), &state)

      case .move(let source, let destination):
        // Offsets from a list that has changed since, or from a script, move nothing.
        guard source.allSatisfy(state.todos.indices.contains),
          (0...state.todos.count).contains(destination)
        else {
          reportIssue(
            "A move of rows \(Array(source)) to \(destination) was sent for a list of "
              + "\(state.todos.count) todos; nothing was moved.")
          return .none
        }
        let previous = state.todos
        state.todos.move(fromOffsets: source, toOffset: destination)
        guard state.todos != previous else { return .none }
        return save(.reorder(ids: Array(state.todos.ids)), rollback: .list(previous), &state)

      case .sortCompletedTodos:
        state.isSortPending = false
        let previous = state.todos
        let sorted = state.todos.filter { !$0.isCompleted } + state.todos.filter(\.isCompleted)
        guard sorted.map(\.id) != Array(previous.ids) else { return .none }
        state.todos = IdentifiedArray(uniqueElements: sorted)
        return save(.reorder(ids: Array(state.todos.ids)), rollback: .list(previous), &state)

      case .saved:
        guard !state.unsavedChanges.isEmpty else { return .none }
        state.unsavedChanges.removeFirst()
        return saveOldestChange(state)

      case .saveFailed(let error):
        // Every unsaved change is undone, newest first, so that each rollback finds the list as
        // it was made from; the later changes were made on the failed one and would likely fail
        // the same way. The list is left as it is stored.
        let undone = state.unsavedChanges.count
        for unsaved in state.unsavedChanges.reversed() {
          switch unsaved.rollback {
          case .row(let todo):
            if state.todos[id: todo.id] != nil { state.todos[id: todo.id] = todo }
          case .remove(let id): state.todos.remove(id: id)
          case .list(let todos): state.todos = todos
          }
        }
        state.unsavedChanges = []
        state.alert = AlertState {
          TextState(
            undone > 1 ? "Your last \(undone) changes were not saved" : "Your change was not saved")
        } message: {
          TextState(error.errorDescription ?? "Something went wrong.")
        }
        return .none

      case .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  private func load(_ state: inout State) -> Effect<Action> {
    state.isLoading = true
    return .run { send in
      await send(.loadResponse(.success(try await todosClient.load())))
    } catch: { error, send in
      await send(.loadResponse(.failure(error as? TodosError ?? .unreadable("\(error)"))))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }

  /// Saves a change the state already shows, after the changes before it; if saving fails, it
  /// is undone and the user is told, so nobody believes something is saved when it is not.
  private func save(
    _ change: TodoChange, rollback: Rollback, _ state: inout State
  ) -> Effect<Action> {
    state.unsavedChanges.append(UnsavedChange(change, rollback: rollback))
    // A save in flight starts the next one when it ends.
    return state.unsavedChanges.count == 1 ? saveOldestChange(state) : .none
  }

  private func saveOldestChange(_ state: State) -> Effect<Action> {
    guard let change = state.unsavedChanges.first?.change else { return .none }
    return .run { send in
      try await todosClient.apply(change)
      await send(.saved)
    } catch: { error, send in
      await send(.saveFailed(error as? TodosError ?? .unwritable("\(error)")))
    }
  }
}

extension TodoList.State: BindingCodable {
  /// The fields the list's bindings set, named for recordings.
  public static let codableBindings: [BindingField<Self>] = [
    .field("searchQuery", \.searchQuery), .field("newTitle", \.newTitle),
    .field("newPriority", \.newPriority), .field("focus", \.focus),
  ]
}
