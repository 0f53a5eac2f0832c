import AppFeature
import TerminalUI

/// What only the terminal knows: which text field is being typed into, the modal's focused
/// button, the spinner's frame, and each screen's own cursor or focus.
struct AppViewState {
  var appearedTab: AppReducer.Tab?
  var spinnerFrame = 0
  var modalButton = 0
  var editing: Field?
  var todos = TodosScreen.ViewState()
  var orders = OrdersScreen.ViewState()
  var signUp = SignUpScreen.ViewState()
  var contacts = ContactsScreen.ViewState()

  /// A text field the keyboard types into.
  enum Field: Equatable {
    case newTodo, todoSearch
    case signUp(Int)
    case contact(Int)
  }
}

/// A line of a screen's body and its style.
typealias Line = (String, Screen.Style?)
/// What a screen draws under the tabs, and the help line for its keys.
typealias ScreenBody = (lines: [Line], help: String)

extension KeyEvent {
  /// The text after this key in a text field: characters append, Backspace deletes; `nil` for
  /// any other key.
  func edit(_ text: String) -> String? {
    switch self {
    case .character(let character): text + String(character)
    case .backspace: String(text.dropLast())
    default: nil
    }
  }
}
