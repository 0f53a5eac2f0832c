/// Runs a child reducer on a part of the parent's state, for the parent actions that embed a
/// child action.
///
/// The child's state can be a stored property (`state: \.counter`) or a case of an enum state
/// (`state: \.detail`, for `Path` and `Destination` reducers).
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {

  // The child state is at one of these two, the other is `nil`. Two optionals rather than an
  // enum: binding an enum's payload copies it (retaining the key path) on every action, where a
  // stored optional is reached in place.
  @usableFromInline let toChildProperty: StatePath<ParentState, Child.State>?
  @usableFromInline let toChildCase: CaseAccess<ParentState, Child.State>?
  @usableFromInline let toChildAction: CaseAccess<ParentAction, Child.Action>
  @usableFromInline let child: Child
  /// The child's key path, type-erased once. Its effects are scoped by its route's scope, or for
  /// a case of the parent's state, by its case access's, each made once.
  // Kept though neither reads it: an operator whose fields are all references is copied out of
  // its parent's body on every action (measured at about 10 instructions a level over ten
  // levels of `Scope`), where one holding this value is reached in place.
  @usableFromInline let effectLocation: AnyHashable
  @usableFromInline let location: IssueLocation

  /// Scopes `child` to the state at a key path and the actions at a case key path.
  @_disfavoredOverload
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      property: toChildState,
      action: CaseAccess(toChildAction),
      child: child(),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Scopes `child` to one case of an enum state and the actions at a case key path; the child
  /// runs only while the state is in that case.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentState: CasePathable {
    self.init(
      case: CaseAccess(toChildState, scopingEffects: true),
      action: CaseAccess(toChildAction),
      child: child(),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Scopes `child` to a stored property, with the child's actions reached through `action`.
  @inlinable
  init(
    property toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: CaseAccess<ParentAction, Child.Action>,
    child: Child,
    location: IssueLocation
  ) {
    self.toChildProperty = StatePath(toChildState)
    self.toChildCase = nil
    self.toChildAction = toChildAction
    self.child = child
    self.effectLocation = toChildState
    self.location = location
  }

  /// Scopes `child` to a case of the parent's state, whose access scopes its effects.
  @inlinable
  init(
    case toChildCase: CaseAccess<ParentState, Child.State>,
    action toChildAction: CaseAccess<ParentAction, Child.Action>,
    child: Child,
    location: IssueLocation
  ) {
    self.toChildProperty = nil
    self.toChildCase = toChildCase
    self.toChildAction = toChildAction
    self.child = child
    self.effectLocation = toChildCase.effectScope!.location
    self.location = location
  }

  // Inlinable so that it is specialised for the feature's types, as it runs on every action.
  /// Runs the child for child actions; ignores every other action.
  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard toChildProperty != nil else {
      return reduceCase(into: &state, action: action, childAction: childAction)
    }
    let childEffect = toChildProperty!.modify(&state) {
      child.reduce(into: &$0, action: childAction)
    }
    guard !childEffect.isNone else { return .none }
    return childEffect.embedded(by: toChildAction, at: toChildProperty!.route)
  }

  // Out of line: moving a case's value out of the parent and back takes a larger frame and a
  // stack-protector check, which inlined here the stored child, the common case, paid for on
  // every action (ten `Scope` levels sent at the root: 1,580 -> 1,536 instructions a send).
  @inlinable @inline(never)
  func reduceCase(
    into state: inout ParentState, action: ParentAction, childAction: Child.Action
  ) -> Effect<ParentAction> {
    guard
      let childEffect = toChildCase!.modify(
        &state, { child.reduce(into: &$0, action: childAction) })
    else {
      location.reportOtherCaseForScope(action: action, state: state)
      return .none
    }
    guard !childEffect.isNone else { return .none }
    return childEffect.embedded(by: toChildAction, in: toChildCase!.effectScope!)
  }
}

extension Scope {
  /// Scopes `child` to the state at a key path and the actions at a case key path; the same as
  /// `Scope(state:action:)`, unlabelled as TCA 1.25 writes it.
  @_disfavoredOverload
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> _ child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      property: toChildState,
      action: CaseAccess(toChildAction),
      child: child(),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Scopes `child` to one case of an enum state; the same as `Scope(state:action:)`,
  /// unlabelled as TCA 1.25 writes it.
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> _ child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentState: CasePathable {
    self.init(
      case: CaseAccess(toChildState, scopingEffects: true),
      action: CaseAccess(toChildAction),
      child: child(),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}
