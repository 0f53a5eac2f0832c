import CustomDump
import Foundation

/// An alert as state: title, message and buttons, presented with `@PresentationState` and
/// `.ifLet(\.$alert, action: \.alert)`. Tapping a button sends its action and closes the alert.
public struct AlertState<Action>: Identifiable, _EphemeralState {
  /// Distinguishes one presentation from another; not part of equality.
  public let id = UUID()
  /// The title.
  public var title: TextState
  /// The message under the title.
  public var message: TextState?
  /// The buttons; an alert with none gets an "OK" that only dismisses.
  public var buttons: [ButtonState<Action>]

  /// An alert, written as in TCA: `AlertState { TextState("Title") } actions: { … } message: { … }`.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// The buttons a renderer shows: the alert's own, or a lone "OK" when it has none.
  public var displayedButtons: [ButtonState<Action>] {
    buttons.isEmpty ? [ButtonState(role: .cancel) { "OK" }] : buttons
  }

  /// Transforms the button actions, to embed them in a parent's action.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> AlertState<NewAction> {
    var alert = AlertState<NewAction>(title: { title })
    alert.message = message
    alert.buttons = buttons.map { $0.map(transform) }
    return alert
  }
}

extension AlertState: Equatable where Action: Equatable {
  /// Alerts are equal when title, message and buttons are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  /// Hashes title, message and buttons.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomDumpReflectable {
  /// Dumps title, message and buttons, leaving out the presentation id.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: ["title": title, "message": message as Any, "buttons": buttons],
      displayStyle: .struct
    )
  }
}

extension AlertState: CustomStringConvertible {
  /// The alert as a terminal shows it: title, message, and the buttons in brackets.
  public var description: String {
    renderDialog(title: title, message: message, buttons: displayedButtons)
  }
}

/// A confirmation dialog (an action sheet) as state; like ``AlertState`` with a choice of
/// whether the title shows.
public struct ConfirmationDialogState<Action>: Identifiable, _EphemeralState {
  /// Whether a renderer shows the title.
  public enum Visibility: Equatable, Hashable, Sendable {
    /// The renderer decides.
    case automatic
    /// The title is hidden.
    case hidden
    /// The title is shown.
    case visible
  }

  /// Distinguishes one presentation from another; not part of equality.
  public let id = UUID()
  /// The title.
  public var title: TextState
  /// Whether the title shows.
  public var titleVisibility: Visibility
  /// The message under the title.
  public var message: TextState?
  /// The choices.
  public var buttons: [ButtonState<Action>]

  /// A dialog, written as in TCA.
  public init(
    titleVisibility: Visibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  /// Dialogs are equal when their visible content and buttons are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.titleVisibility == rhs.titleVisibility
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  /// Hashes the visible content and buttons.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(titleVisibility)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomDumpReflectable {
  /// Dumps the visible content and buttons, leaving out the presentation id.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: [
        "title": title, "titleVisibility": titleVisibility, "message": message as Any,
        "buttons": buttons,
      ],
      displayStyle: .struct
    )
  }
}

extension ConfirmationDialogState: CustomStringConvertible {
  /// The dialog as a terminal shows it.
  public var description: String {
    renderDialog(
      title: titleVisibility == .hidden ? nil : title,
      message: message,
      buttons: buttons
    )
  }
}

private func renderDialog<Action>(
  title: TextState?,
  message: TextState?,
  buttons: [ButtonState<Action>]
) -> String {
  var lines: [String] = []
  if let title { lines.append(title.string) }
  if let message { lines.append(message.string) }
  let labels = buttons.map { button -> String in
    switch button.role {
    case .destructive?: "[! \(button.label)]"
    case .cancel?: "[\(button.label)]"
    case nil: "[\(button.label)]"
    }
  }
  lines.append(labels.joined(separator: " "))
  return lines.joined(separator: "\n")
}

extension AlertState {
  /// An alert that reports a failure and offers to try again: "Retry" sends `retry`, "Cancel"
  /// only dismisses.
  public static func failure(title: TextState, message: TextState, retry: Action) -> Self {
    AlertState {
      title
    } actions: {
      ButtonState(action: retry) { TextState("Retry") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      message
    }
  }
}
