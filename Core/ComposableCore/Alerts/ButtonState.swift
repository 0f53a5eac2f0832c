import CustomDump
import Foundation

/// What a button means: a plain choice, the choice that cancels, or one that destroys data.
public enum ButtonStateRole: Equatable, Hashable, Sendable {
  /// Dismisses without doing anything.
  case cancel
  /// Deletes or discards something.
  case destructive
}

/// What tapping a button does: send an action, or only dismiss (`nil`).
public struct ButtonStateAction<Action> {
  /// The action to send when the button is tapped; `nil` only dismisses.
  public let action: Action?

  /// Sends `action` (or nothing) when the button is tapped.
  public static func send(_ action: Action?) -> Self {
    Self(action: action)
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

/// A button of an alert or a confirmation dialog: its label, role and action.
public struct ButtonState<Action>: Identifiable {
  /// Distinguishes buttons when rendering; not part of equality.
  public let id = UUID()
  /// The role, which a renderer shows (a destructive button in red, cancel last).
  public let role: ButtonStateRole?
  /// What tapping the button does.
  public let action: ButtonStateAction<Action>
  /// The button's text.
  public let label: TextState

  /// A button that sends `action` (or only dismisses).
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// A button that sends `action`.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// Transforms the action, to embed it in a parent's action.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonState<NewAction> {
    ButtonState<NewAction>(role: role, action: .send(action.action.map(transform))) { label }
  }
}

extension ButtonState: Equatable where Action: Equatable {
  /// Buttons are equal when role, action and label are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.role == rhs.role && lhs.action == rhs.action && lhs.label == rhs.label
  }
}

extension ButtonState: Hashable where Action: Hashable {
  /// Hashes role, action and label.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(role)
    hasher.combine(action)
    hasher.combine(label)
  }
}

extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomDumpReflectable {
  /// Dumps role, action and label, leaving out the rendering id.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: [
        "role": role as Any,
        "action": action.action as Any,
        "label": label,
      ],
      displayStyle: .struct
    )
  }
}

/// Builds the button list of an alert or dialog, with `if` and `for` support.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  /// The buttons, in order.
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// One button.
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }

  /// Buttons from a loop.
  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// Buttons from an `if` without `else`.
  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }

  /// Buttons from the first branch of an `if`/`else`.
  public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  /// Buttons from the second branch of an `if`/`else`.
  public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }
}
