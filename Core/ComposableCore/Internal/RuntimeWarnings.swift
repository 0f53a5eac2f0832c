import CustomDump

// The runtime warnings of the reducer operators, in one place and in TCA's words: TCA users'
// tests match these messages (`withKnownIssue { … } matching:`), so they read as TCA's do.

extension IssueLocation {
  /// An `ifLet` received a child action while the child state was `nil`.
  @usableFromInline
  func reportNilChild(action: Any) {
    report(
      """
      An "ifLet" at "\(self)" received a child action when child state was "nil".

        Action:
      \(String(customDumping: action).indenting(by: 4))

      This is generally considered an application logic error, and can happen for a few reasons:

      A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
      before any other reducer sets child state to "nil". This ensures that child reducers can \
      handle their actions while their state is still available.

      An in-flight effect emitted this action when child state was "nil". While it may be \
      perfectly reasonable to ignore this action, consider canceling the associated effect \
      before child state becomes "nil", especially if it is a long-living effect.

      This action was sent to the store while state was "nil". Make sure that actions for this \
      reducer can only be sent from a store when state is non-"nil". In SwiftUI \
      applications, use "IfLetStore".
      """
    )
  }

  /// An `ifCaseLet` received a child action while the parent's state was in another case.
  @usableFromInline
  func reportOtherCaseForIfCaseLet(action: Any, state: Any) {
    report(
      """
      An "ifCaseLet" at "\(self)" received a child action when child state was set to a \
      different case.

        Action:
      \(String(customDumping: action).indenting(by: 4))
        State:
      \(String(customDumping: state).indenting(by: 4))

      This is generally considered an application logic error, and can happen for a few reasons:

      A parent reducer set "\(typeName(type(of: state)))" to a different case before this \
      reducer ran. This reducer must run before any other reducer sets child state to a \
      different case. This ensures that child reducers can handle their actions while their \
      state is still available.

      \(Self.otherCaseReasons)
      """
    )
  }

  /// A `Scope` over a case received a child action while the parent's state was in another
  /// case.
  @usableFromInline
  func reportOtherCaseForScope(action: Any, state: Any) {
    report(
      """
      A "Scope" at "\(self)" received a child action when child state was set to a \
      different case.

        Action:
          \(debugCaseOutput(action))
        State:
          \(debugCaseOutput(state))

      This is generally considered an application logic error, and can happen for a few reasons:

      A parent reducer set "\(typeName(type(of: state)))" to a different case before the \
      scoped reducer ran. Child reducers must run before any parent reducer sets child state \
      to a different case. This ensures that child reducers can handle their actions while \
      their state is still available. Consider using "Reducer.ifCaseLet" to embed this \
      child reducer in the parent reducer that change its state to ensure the child reducer \
      runs first.

      \(Self.otherCaseReasons)
      """
    )
  }

  /// A `forEach` received an action for an element that is not in the collection or stack.
  @usableFromInline
  func reportMissingElement(action: Any, inStack: Bool) {
    let fix =
      inStack
      ? """
      In SwiftUI applications, use "NavigationStack.init(path:)" with a binding to a store.
      """
      : #"In SwiftUI applications, use "ForEachStore"."#
    report(
      """
      A "forEach" at "\(self)" received an action for a missing element.

        Action:
          \(debugCaseOutput(action))

      This is generally considered an application logic error, and can happen for a few reasons:

      A parent reducer removed an element with this ID before this reducer ran. This reducer \
      must run before any other reducer removes an element, which ensures that element \
      reducers can handle their actions while their state is still available.

      An in-flight effect emitted this action when state contained no element at this ID. \
      While it may be perfectly reasonable to ignore this action, consider canceling the \
      associated effect before an element is removed, especially if it is a long-living effect.

      This action was sent to the store while its state contained no element at this ID. To \
      fix this make sure that actions for this reducer can only be sent from a store when \
      its state contains an element at this id. \(fix)
      """
    )
  }

  /// A stack `forEach` received a `popFrom` for an element that is not in the stack.
  @usableFromInline
  func reportMissingPop(id: StackElementID, ids: [StackElementID]) {
    report(
      """
      A "forEach" at "\(self)" received a "popFrom" action for a missing element.

        ID:
          \(id)
        Path IDs:
          \(ids)
      """
    )
  }

  /// A stack `forEach` received a `push` for an id already in the stack.
  @usableFromInline
  func reportRepeatedPush(id: StackElementID, ids: [StackElementID]) {
    report(
      """
      A "forEach" at "\(self)" received a "push" action for an element it already contains.

        ID:
          \(id)
        Path IDs:
          \(ids)
      """
    )
  }

  /// In a test, a stack `forEach` received a `push` whose id is past the next one the
  /// `stackElementID` dependency would give.
  @usableFromInline
  func reportUnexpectedPushID(_ id: StackElementID, expected: StackElementID) {
    report(
      """
      A "forEach" at "\(self)" received a "push" action with an unexpected generational ID.

        Received ID:
          \(id)
        Expected ID:
          \(expected)
      """
    )
  }

  /// A presentation `ifLet` received an action for a destination that is not presented.
  @usableFromInline
  func reportAbsentDestination(action: Any) {
    report(
      """
      An "ifLet" at "\(self)" received a presentation action when destination state was \
      absent.

        Action:
          \(debugCaseOutput(action))

      This is generally considered an application logic error, and can happen for a few reasons:

      A parent reducer set destination state to "nil" before this reducer ran. This reducer \
      must run before any other reducer sets destination state to "nil". This ensures that \
      destination reducers can handle their actions while their state is still present.

      This action was sent to the store while destination state was "nil". Make sure that \
      actions for this reducer can only be sent from a store when state is present, or \
      from effects that start from this reducer.
      """
    )
  }
}

extension IssueLocation {
  /// The reasons `ifCaseLet` and `Scope` give for an action that found another case.
  static let otherCaseReasons = """
    An in-flight effect emitted this action when child state was unavailable. While it may \
    be perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state changes to another case, especially if it is a long-living effect.

    This action was sent to the store while state was another case. Make sure that actions \
    for this reducer can only be sent from a store when state is set to the appropriate \
    case. In SwiftUI applications, use "SwitchStore".
    """
}

/// A type's name as a dump shows it: without its module, `Feature.Action`.
package func typeName(_ type: Any.Type) -> String {
  let dumped = String(customDumping: type)
  return dumped.hasSuffix(".self") ? String(dumped.dropLast(5)) : dumped
}

/// A value as the outline of its cases, `Feature.Action.child(.tapped)`, leaving out payloads
/// that are not enums (`.element(id:, action:)` for a pair); `abbreviated` leaves out the type.
/// What TCA's warnings and test failures show of an action.
package func debugCaseOutput(_ value: Any, abbreviated: Bool = false) -> String {
  if let described = value as? any CustomDebugStringConvertible {
    return described.debugDescription
  }
  return (abbreviated ? "" : typeName(type(of: value))) + caseOutline(of: value)
}

private func caseOutline(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    guard let child = mirror.children.first else {
      // A case without a value describes as its name.
      let name = "\(value)"
      return name == typeName(type(of: value)) ? "" : ".\(name)"
    }
    let inner = caseOutline(of: child.value)
    return ".\(child.label ?? "")\(inner.isEmpty ? "" : "(\(inner))")"
  case .tuple:
    return mirror.children.map { label, value in
      let inner = caseOutline(of: value)
      let isPositional = label.map { $0.allSatisfy { $0 == "." || $0.isNumber } } ?? true
      let name = label.map { isPositional ? "_:" : "\($0):" } ?? ""
      return "\(name)\(inner.isEmpty ? "" : " \(inner)")"
    }
    .joined(separator: ", ")
  default:
    return ""
  }
}
