import ComposableCore
import FormFeature
import SignUpClient
import TerminalUI

/// The sign-up tab: the form's fields, each with its error once touched, and Submit.
@MainActor
@ViewAction(for: SignUpForm.self)
struct SignUpScreen {
  let store: StoreOf<SignUpForm>

  /// Which row has focus.
  struct ViewState {
    var focus = 0
  }

  static let fields = ["Email", "Password", "Confirm password", "Accept the terms", "Submit"]
  /// The text fields, in the order of ``fields``.
  static let textFields: [WritableKeyPath<SignUpForm.State, String>] = [
    \.email, \.password, \.confirmPassword,
  ]

  func render(view: AppViewState, spin: String) -> ScreenBody {
    var lines: [Line] = [("Create an account", .bold)]
    let values = [
      store.email, String(repeating: "•", count: store.password.count),
      String(repeating: "•", count: store.confirmPassword.count),
    ]
    let validated: [SignUpField] = [.email, .password, .confirmPassword, .acceptTerms]
    for (index, name) in Self.fields.enumerated() {
      let focused = index == view.signUp.focus % Self.fields.count
      let cursor = focused && view.editing == .signUp(index) ? "▏" : ""
      let line: String
      switch index {
      case 0...2: line = "\(name): \(values[index])\(cursor)"
      case 3: line = "[\(store.acceptTerms ? "x" : " ")] \(name)"
      default:
        line =
          store.isSubmitting
          ? "\(spin) Submitting…"
          : (store.canSubmit ? "< Submit >" : "< Submit > (fix the fields first)")
      }
      lines.append(((focused ? "› " : "  ") + line, focused ? .inverse : nil))
      if index < validated.count, let error = store.withState({ $0.error(for: validated[index]) }) {
        lines.append(("    \(error)", .error))
      }
    }
    let help =
      view.editing != nil
      ? "type text  Enter/Esc done"
      : "↑/↓ field  Enter edit/submit  space toggle  1-5 tabs  q quit"
    return (lines, help)
  }

  func handle(_ key: KeyEvent, view: inout AppViewState) {
    let count = Self.fields.count
    let focus = view.signUp.focus % count
    switch key {
    case .up, .backTab: view.signUp.focus = (focus + count - 1) % count
    case .down, .tab: view.signUp.focus = (focus + 1) % count
    // Assigning through the store sends the binding view action.
    case .character(" ") where focus == 3: store.acceptTerms.toggle()
    case .enter where focus <= 2: view.editing = .signUp(focus)
    case .enter where focus == 3: store.acceptTerms.toggle()
    case .enter: send(.submitButtonTapped)
    default: break
    }
  }

  /// Typing into one of the text fields.
  func type(_ key: KeyEvent, into index: Int, view: inout AppViewState) {
    let field = Self.textFields[index]
    if let text = key.edit(store.withState { $0[keyPath: field] }) {
      store[dynamicMember: field] = text
    }
    if key == .enter || key == .escape { view.editing = nil }
  }
}
