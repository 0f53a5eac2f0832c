import ComposableCore
import FormFeature
import SignUpClient
import TerminalUI

/// The sign-up tab: the form's fields, each with its error once touched, and Submit.
@MainActor
@ViewAction(for: SignUpForm.self)
final class SignUpScreen: TabScreen {
  let store: StoreOf<SignUpForm>
  /// The row with focus.
  private var focus = 0
  /// The text field being typed into.
  private var editing: Int?

  init(store: StoreOf<SignUpForm>) {
    self.store = store
  }

  static let fields = ["Email", "Password", "Confirm password", "Accept the terms", "Submit"]
  /// The text fields, in the order of ``fields``.
  static let textFields: [WritableKeyPath<SignUpForm.State, String>] = [
    \.email, \.password, \.confirmPassword,
  ]

  var isTyping: Bool { editing != nil }
  var isBusy: Bool { store.isSubmitting }

  func body(_ frame: Frame) -> ScreenBody {
    var lines = [Line("Create an account", .bold)]
    let values = [
      store.email, String(repeating: "•", count: store.password.count),
      String(repeating: "•", count: store.confirmPassword.count),
    ]
    let validated: [SignUpField] = [.email, .password, .confirmPassword, .acceptTerms]
    for (index, name) in Self.fields.enumerated() {
      let focused = index == focus
      let cursor = focused && editing == index ? "▏" : ""
      let line: String
      switch index {
      case 0...2: line = "\(name): \(values[index])\(cursor)"
      case 3: line = "[\(store.acceptTerms ? "x" : " ")] \(name)"
      default:
        line =
          store.isSubmitting
          ? "\(frame.spin) Submitting…"
          : (store.canSubmit ? "< Submit >" : "< Submit > (fix the fields first)")
      }
      lines.append(.item(line, selected: focused))
      if index < validated.count, let error = store.withState({ $0.error(for: validated[index]) }) {
        lines.append(Line("    \(error)", .error))
      }
    }
    let hints =
      editing != nil ? "type text  Enter/Esc done" : "↑/↓ field  Enter edit/submit  space toggle"
    return ScreenBody(lines: lines, hints: hints)
  }

  let keys = [
    KeyHelp("↑/↓ or Tab", "move between fields"), KeyHelp("Enter", "edit a field, or submit"),
    KeyHelp("space", "accept the terms"), KeyHelp("Enter or Esc", "finish typing"),
  ]

  func handle(_ key: KeyEvent) -> Bool {
    if let index = editing {
      let field = Self.textFields[index]
      if let text = key.edit(store.withState { $0[keyPath: field] }) {
        // Assigning through the store sends the binding view action.
        store[dynamicMember: field] = text
      }
      if key == .enter || key == .escape { editing = nil }
      return true
    }
    let count = Self.fields.count
    switch key {
    case .up, .backTab: focus = (focus + count - 1) % count
    case .down, .tab: focus = (focus + 1) % count
    case .character(" ") where focus == 3: store.acceptTerms.toggle()
    case .enter where focus <= 2: editing = focus
    case .enter where focus == 3: store.acceptTerms.toggle()
    case .enter: send(.submitButtonTapped)
    default: return false
    }
    return true
  }
}
