import AppFeature
import ComposableCore
import NavigationFeature

/// An alert or dialog over the current tab, with what each button does.
struct Modal {
  var title: String
  var message: String?
  var buttons: [(label: String, role: ButtonStateRole?, press: () -> Void)]
  var dismiss: () -> Void

  /// A modal whose buttons send their action, or dismiss when they have none.
  init<A>(
    _ title: TextState,
    _ message: TextState?,
    _ buttons: [ButtonState<A>],
    _ send: @escaping (PresentationAction<A>) -> Void
  ) {
    self.title = title.string
    self.message = message?.string
    self.buttons = buttons.map { button in
      (
        button.label.string, button.role,
        { send(button.action.action.map { .presented($0) } ?? .dismiss) }
      )
    }
    self.dismiss = { send(.dismiss) }
  }

  /// The button Enter presses unless another is chosen: never a destructive one.
  var defaultButton: Int {
    buttons.firstIndex { $0.role != .destructive } ?? 0
  }

  /// Tells one modal from another, to put the focus back on the default for a new one.
  var identity: String {
    ([title, message ?? ""] + buttons.map(\.label)).joined(separator: "\u{0}")
  }
}

@MainActor
enum Modals {
  static func modal(_ state: AppReducer.State, send: @escaping (AppReducer.Action) -> Void)
    -> Modal?
  {
    func make<A>(_ alert: AlertState<A>?, _ send: @escaping (PresentationAction<A>) -> Void)
      -> Modal?
    {
      guard let alert else { return nil }
      return Modal(alert.title, alert.message, alert.displayedButtons, send)
    }
    switch state.selectedTab {
    case .counter: return make(state.counter.alert) { send(.counter(.alert($0))) }
    case .todos: return make(state.todos.alert) { send(.todos(.alert($0))) }
    case .signUp: return make(state.signUp.alert) { send(.signUp(.alert($0))) }
    case .orders: return nil
    case .contacts:
      if let modal = make(state.contacts.alert, { send(.contacts(.alert($0))) }) {
        return modal
      }
      if let id = state.contacts.path.ids.last,
        case .detail(let detail)? = state.contacts.path[id: id],
        let dialog = detail.confirmationDialog
      {
        return Modal(dialog.title, dialog.message, dialog.buttons) {
          send(.contacts(.path(.element(id: id, action: .detail(.confirmationDialog($0))))))
        }
      }
      return nil
    }
  }
}
