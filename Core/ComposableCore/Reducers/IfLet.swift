import IssueReporting

extension Reducer {
  /// Runs `wrapped` on optional child state while it is present. When the parent sets the child
  /// state to `nil`, every effect the child started is cancelled.
  ///
  /// A child action that arrives while the state is `nil` is reported as a runtime issue.
  @_disfavoredOverload
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped> {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: CaseAccess(toWrappedAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs an alert or dialog held in plain optional state, which needs no reducer: once it has
  /// sent an action, and the parent has handled it, it goes away.
  @_disfavoredOverload
  @inlinable
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    _IfLetReducer(
      parent: self,
      child: EmptyReducer(),
      toChildState: toWrappedState,
      toChildAction: CaseAccess(toWrappedAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `ifLet` returns: the parent, plus a child on optional state.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: _BuiltReducer<Parent>
  @usableFromInline let child: Child
  @usableFromInline let toChildState: StatePath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: CaseAccess<Parent.Action, Child.Action>
  @usableFromInline let location: IssueLocation
  @usableFromInline let identity = ChildIdentity<Child.State>()

  // Inlinable, so that the child's identity is watched as its own type (``ChildIdentity``).
  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CaseAccess<Parent.Action, Child.Action>,
    location: IssueLocation
  ) {
    self.parent = _BuiltReducer(parent)
    self.child = child
    self.toChildState = StatePath(toChildState)
    self.toChildAction = toChildAction
    self.location = location
  }

  // Always inlined: once `StatePath.read` had a third way to reach the child, the optimiser
  // stopped inlining this, a call for each of its two uses a level (ten levels: 1,989 -> 2,338
  // instructions a send).
  @inlinable @inline(__always)
  func isPresent(_ state: inout Parent.State) -> Bool {
    toChildState.read(&state) { $0 != nil }
  }

  /// The scope of the child's effects, made with the operator.
  @inlinable
  var effectScope: EffectScope { toChildState.route.effectScope }

  // Inlinable, as every action of a feature passes through here: specialised for the concrete
  // feature types, it does not look up generic type metadata on each call. Always inlined into
  // the body that holds it (its one caller), which saves a call frame per level (ten levels:
  // 2,632 -> 2,463 instructions a send).
  /// Runs the child first for child actions, then the parent.
  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    guard let childAction = toChildAction.extract(from: action) else {
      // Only a child that has started work that can outlive its action leaves anything to
      // cancel when it goes or another takes its place, so only then is it watched across the
      // parent; for any other the parent runs alone, as it does below once the child has run
      // (ten levels sent at the root: 1,648 -> 1,554 instructions a send).
      guard identity.childHasWork, isPresent(&state) else {
        return parent.reduce(into: &state, action: action)
      }
      return reduceParentWatchingChild(into: &state, action: action, childEffects: .none)
    }
    guard isPresent(&state) else {
      location.reportNilChild(action: action)
      return parent.reduce(into: &state, action: action)
    }
    let effects = toChildState.modify(&state) { child.reduce(into: &$0!, action: childAction) }
    guard !effects.isNone else {
      guard identity.childHasWork else { return parent.reduce(into: &state, action: action) }
      return reduceParentWatchingChild(
        into: &state, action: action, childEffects: .none, childActed: true)
    }
    if effects.canOutliveItsAction { identity.childHasWork = true }
    let childEffects = effects.embedded(by: toChildAction, at: toChildState.route)
    guard identity.childHasWork else {
      return childEffects.merge(with: parent.reduce(into: &state, action: action))
    }
    return reduceParentWatchingChild(
      into: &state, action: action, childEffects: childEffects, childActed: true)
  }

  /// Runs the parent with a child that has started work that can outlive its action: when the
  /// parent removes the child or puts another in its place, the child's effects are cancelled.
  /// An alert or dialog (watched from the start) that acted goes away after the parent, unless
  /// the parent put another in its place, as TCA's `ifLet` does: a button both acts and closes.
  @inlinable @inline(never)
  func reduceParentWatchingChild(
    into state: inout Parent.State, action: Parent.Action, childEffects: Effect<Parent.Action>,
    childActed: Bool = false
  ) -> Effect<Parent.Action> {
    // The child as the parent receives it.
    toChildState.read(&state) { identity.remember($0!) }
    let parentEffects = parent.reduce(into: &state, action: action)
    if childActed, identity.isEphemeral, isPresent(&state), !isReplaced(in: &state) {
      toChildState.modify(&state) { $0 = nil }
    }
    guard !isPresent(&state) || isReplaced(in: &state) else {
      return childEffects.isNone ? parentEffects : childEffects.merge(with: parentEffects)
    }
    return .merge(childEffects, parentEffects, .cancelScope(effectScope))
  }

  /// Whether the present child is another than the one the parent received.
  @inlinable
  func isReplaced(in state: inout Parent.State) -> Bool {
    toChildState.read(&state) { identity.isReplaced(by: $0!) }
  }
}

extension Reducer where State: CasePathable {
  /// Runs `case` while the enum state is in the case at `toCaseState`. When the state moves to
  /// another case, every effect the case's reducer started is cancelled.
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer<CaseState, CaseAction>>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case> {
    _IfCaseLetReducer(
      parent: self,
      child: `case`(),
      toChildState: CaseAccess(toCaseState, scopingEffects: true),
      toChildAction: CaseAccess(toCaseAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `ifCaseLet` returns: the parent, plus a child on one case of an enum state.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: _BuiltReducer<Parent>
  @usableFromInline let child: Child
  /// The case key path of the child's state, type-erased once. Kept though nothing reads it, for
  /// the reason `Scope` keeps its own (its effects are scoped by its case access's scope).
  @usableFromInline let effectLocation: AnyHashable
  @usableFromInline let toChildState: CaseAccess<Parent.State, Child.State>
  @usableFromInline let toChildAction: CaseAccess<Parent.Action, Child.Action>
  @usableFromInline let location: IssueLocation
  @usableFromInline let identity = ChildIdentity<Child.State>()

  // Inlinable, as `ifLet`'s.
  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: CaseAccess<Parent.State, Child.State>,
    toChildAction: CaseAccess<Parent.Action, Child.Action>,
    location: IssueLocation
  ) {
    self.parent = _BuiltReducer(parent)
    self.child = child
    self.effectLocation = toChildState.effectScope!.location
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  // Inlinable, as `ifLet`: unspecialised, each action looked up the generic metadata of the
  // states, actions and effects, and ran the child through protocol witnesses. Not split into a
  // path without work and one watching the child, as `ifLet` is: written so, one level measured
  // 823 instructions a send against 788, the case's extraction being the larger part of a level.
  /// Runs the child first for child actions, then the parent.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    var childEffects = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(from: action) {
      if let effects = toChildState.modify(&state, { child.reduce(into: &$0, action: childAction) })
      {
        if !effects.isNone {
          childEffects = effects.embedded(by: toChildAction, in: effectScope)
          if effects.canOutliveItsAction { identity.childHasWork = true }
        }
      } else {
        location.reportOtherCaseForIfCaseLet(action: action, state: state)
      }
    }
    // As in `ifLet`: only a child in its case that has started work is looked at again after the
    // parent ran, and its identity kept for that, when the parent could put another in its place;
    // the case is not extracted for any other (one level: 842 -> 788 instructions a send).
    var isWatching = false
    if identity.childHasWork, let child = toChildState.extract(from: state) {
      identity.remember(child)
      isWatching = true
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    guard isWatching, toChildState.extract(from: state) == nil || isReplaced(in: state) else {
      // Not `merge(with:)` alone, though it answers `.none` too: written so, the `.none` path
      // every other action takes measured 55 instructions more over ten levels.
      return childEffects.isNone ? parentEffects : childEffects.merge(with: parentEffects)
    }
    return .merge(childEffects, parentEffects, .cancelScope(effectScope))
  }

  /// The scope of the child's effects, made once with its state's case access.
  @inlinable
  var effectScope: EffectScope { toChildState.effectScope! }

  /// Whether the case holds another child than the one the parent received.
  @inlinable
  func isReplaced(in state: Parent.State) -> Bool {
    toChildState.extract(from: state).map { identity.isReplaced(by: $0) } ?? false
  }
}

/// Where an operator or a test step was written, for issues that point at that source line.
///
/// A class: an operator carries one on every action and only reads it to report an issue, and
/// as a reference it takes one word of the operator's value instead of eight, which the operator
/// would otherwise copy at every level of every action.
@usableFromInline
package final class IssueLocation: CustomStringConvertible, Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  @usableFromInline
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  @usableFromInline package var description: String { "\(fileID):\(line)" }

  package func report(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
