import ComposableCore
import Foundation

struct Item: Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
}

// MARK: - Three-level drill-down: list → detail → edit

/// The root of a stack: a list of items; tapping one pushes its detail.
struct ItemList: Reducer {
  struct State: Equatable {
    var items: IdentifiedArrayOf<Item> = []
    var path = StackState<Path.State>()
  }

  @CasePathable
  enum Action: Equatable {
    case itemTapped(Item.ID)
    /// The item is gone: every screen showing it closes, wherever it is in the stack.
    case itemDeleted(Item.ID)
    case path(StackActionOf<Path>)
    case popToRootButtonTapped
  }

  /// The screens that can be pushed.
  struct Path: Reducer {
    @CasePathable
    enum State: Equatable {
      case detail(ItemDetail.State)
      case edit(ItemEdit.State)

      /// The item the screen shows.
      var item: Item {
        switch self {
        case .detail(let detail): detail.item
        case .edit(let edit): edit.item
        }
      }
    }

    @CasePathable
    enum Action: Equatable {
      case detail(ItemDetail.Action)
      case edit(ItemEdit.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.detail, action: \.detail) { ItemDetail() }
      Scope(state: \.edit, action: \.edit) { ItemEdit() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .itemTapped(let id):
        guard let item = state.items[id: id] else { return .none }
        state.path.append(.detail(ItemDetail.State(item: item)))
        return .none

      case .path(.element(id: _, action: .detail(.delegate(.editRequested(let item))))):
        state.path.append(.edit(ItemEdit.State(item: item)))
        return .none

      case .path(.element(id: _, action: .edit(.delegate(.saved(let item))))):
        state.items[id: item.id] = item
        for id in state.path.ids {
          guard case .detail(var detail)? = state.path[id: id], detail.item.id == item.id
          else { continue }
          detail.item = item
          state.path[id: id] = .detail(detail)
        }
        return .none

      case .itemDeleted(let id):
        state.items.remove(id: id)
        state.path.removeAll { $0.item.id == id }
        return .none

      case .popToRootButtonTapped:
        state.path.removeAll()
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

/// Shows an item and counts the seconds it has been on screen.
struct ItemDetail: Reducer {
  struct State: Equatable {
    var item: Item
    var secondsOnScreen = 0
  }

  @CasePathable
  enum Action: Equatable {
    case onAppear
    case timerTicked
    case editButtonTapped
    case delegate(Delegate)

    @CasePathable
    enum Delegate: Equatable {
      case editRequested(Item)
    }
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onAppear:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.timerTicked)
        }
      }
    case .timerTicked:
      state.secondsOnScreen += 1
      return .none
    case .editButtonTapped:
      return .send(.delegate(.editRequested(state.item)))
    case .delegate:
      return .none
    }
  }
}

/// Edits an item's title; reports the result to its parent and dismisses itself.
struct ItemEdit: Reducer {
  struct State: Equatable {
    var item: Item
    var draft: String
    var titleError: String?

    init(item: Item) {
      self.item = item
      self.draft = item.title
    }
  }

  @CasePathable
  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
    case saveButtonTapped
    case cancelButtonTapped
    case delegate(Delegate)

    @CasePathable
    enum Delegate: Equatable {
      case saved(Item)
    }
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.draft):
        let isBlank = state.draft.trimmingCharacters(in: .whitespaces).isEmpty
        state.titleError = isBlank ? "A title cannot be empty." : nil
        return .none
      case .binding:
        return .none
      case .saveButtonTapped:
        guard state.titleError == nil else { return .none }
        let item = Item(id: state.item.id, title: state.draft)
        return .run { send in
          await send(.delegate(.saved(item)))
          await dismiss()
        }
      case .cancelButtonTapped:
        return .run { _ in await dismiss() }
      case .delegate:
        return .none
      }
    }
  }
}

// MARK: - A sheet and an alert

/// An inbox: "compose" opens a sheet that sends a message; "clear" asks for confirmation.
struct Inbox: Reducer {
  struct State: Equatable {
    var messages: [String] = []
    @PresentationState var destination: Destination.State?
  }

  @CasePathable
  enum Action: Equatable {
    case composeButtonTapped
    case clearButtonTapped
    case destination(PresentationAction<Destination.Action>)
  }

  struct Destination: Reducer {
    @CasePathable
    enum State: Equatable {
      case compose(Compose.State)
      case alert(AlertState<Action.Alert>)
    }

    @CasePathable
    enum Action: Equatable {
      case compose(Compose.Action)
      case alert(Alert)

      @CasePathable
      enum Alert: Equatable {
        case confirmClear
      }
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.compose, action: \.compose) { Compose() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .composeButtonTapped:
        state.destination = .compose(Compose.State())
        return .none
      case .clearButtonTapped:
        state.destination = .alert(.confirmClear)
        return .none
      case .destination(.presented(.alert(.confirmClear))):
        state.messages.removeAll()
        return .none
      case .destination(.presented(.compose(.delegate(.sent(let message))))):
        state.messages.append(message)
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}

extension AlertState where Action == Inbox.Destination.Action.Alert {
  static let confirmClear = AlertState {
    TextState("Clear all messages?")
  } actions: {
    ButtonState(role: .destructive, action: .confirmClear) { TextState("Clear") }
    ButtonState(role: .cancel) { TextState("Cancel") }
  } message: {
    TextState("This cannot be undone.")
  }
}

/// A sheet that "sends" a message after a second, reports it, and dismisses itself.
struct Compose: Reducer {
  struct State: Equatable {
    var text = ""
    var isSending = false
  }

  @CasePathable
  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
    case sendButtonTapped
    case delegate(Delegate)

    @CasePathable
    enum Delegate: Equatable {
      case sent(String)
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .sendButtonTapped:
        state.isSending = true
        return .run { [text = state.text] send in
          try await clock.sleep(for: .seconds(1))
          await send(.delegate(.sent(text)))
          await dismiss()
        }
      case .delegate:
        return .none
      }
    }
  }
}

/// A feature with a plain alert, not inside a destination enum.
struct Deleter: Reducer {
  struct State: Equatable {
    var isDeleted = false
    @PresentationState var alert: AlertState<Action.Alert>?
  }

  @CasePathable
  enum Action: Equatable {
    case deleteButtonTapped
    case alert(PresentationAction<Alert>)

    @CasePathable
    enum Alert: Equatable {
      case confirmDelete
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.alert = AlertState {
          TextState("Delete?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDelete) { TextState("Delete") }
        }
        return .none
      case .alert(.presented(.confirmDelete)):
        state.isDeleted = true
        return .none
      case .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}
