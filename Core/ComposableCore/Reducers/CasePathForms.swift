import IssueReporting

// The operators and subscripts as TCA 1.0–1.3 code wrote them, with `AnyCasePath`s
// (`action: /Action.child`). TCA 1.x still accepts them, deprecated in favour of case key paths;
// so do we, with the same deprecation, so that such code compiles unchanged and says what to
// change. Each forwards to the case-key-path form's operator, with the case path as its access.

/// What `Scope`, `ifCaseLet` and `ifLet` scope a child's effects by when the child is reached
/// through an `AnyCasePath`, which, unlike a key path, cannot be compared: the operator itself,
/// equal only to itself.
@usableFromInline
final class _CasePathEffectLocation: Hashable, Sendable {
  @usableFromInline init() {}
  @usableFromInline static func == (lhs: _CasePathEffectLocation, rhs: _CasePathEffectLocation)
    -> Bool
  {
    lhs === rhs
  }
  @usableFromInline func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

extension CaseAccess {
  /// The case a case path embeds and extracts.
  @inlinable
  package convenience init(_ casePath: AnyCasePath<Root, Value>, scopingEffects: Bool = false) {
    self.init(
      embed: { casePath.embed($0) },
      extract: { casePath.extract(from: $0) },
      effectLocation: scopingEffects ? AnyHashable(_CasePathEffectLocation()) : nil
    )
  }
}

extension Scope {
  /// Scopes `child` to the state at a key path and the actions a case path embeds.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
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

  /// Scopes `child` to the case of the state and the actions that case paths embed.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      case: CaseAccess(toChildState, scopingEffects: true),
      action: CaseAccess(toChildAction),
      child: child(),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension Reducer {
  /// `ifLet` with the child's actions at a case path.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  @warn_unqualified_access
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
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

  /// `ifLet` for ephemeral optional state, with its actions at a case path.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  @warn_unqualified_access
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
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

  /// `ifCaseLet` with the case of the state and the child's actions at case paths.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  @warn_unqualified_access
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer<CaseState, CaseAction>>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
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

  /// The presentation `ifLet` with the child's actions at a case path.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  @warn_unqualified_access
  public func ifLet<
    DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination> {
    _PresentationReducer(
      parent: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: CaseAccess(toPresentationAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// The presentation `ifLet` for ephemeral state, with its actions at a case path.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  @warn_unqualified_access
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    _PresentationReducer(
      parent: self,
      destination: EmptyReducer(),
      toPresentationState: toPresentationState,
      toPresentationAction: CaseAccess(toPresentationAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// `forEach` over an identified array, with the element actions at a case path of `(id,
  /// action)` pairs, as TCA 1.0 wrote them.
  @available(*, deprecated, message: "Use a case key path to an 'IdentifiedAction', instead.")
  @inlinable
  @warn_unqualified_access
  public func forEach<
    ElementState, ElementAction, ID: Hashable & Sendable,
    Element: Reducer<ElementState, ElementAction>
  >(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, (ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element> {
    _ForEachReducer(
      parent: self,
      element: element(),
      toElementsState: toElementsState,
      toElementAction: CaseAccess(
        embed: { action in
          switch action {
          case .element(let id, let action): toElementAction.embed((id, action))
          }
        },
        extract: { toElementAction.extract(from: $0).map { .element(id: $0, action: $1) } },
        effectLocation: nil
      ),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// The stack `forEach` with the stack's actions at a case path.
  @available(
    *, deprecated, message: "Use the version of this operator with case key paths, instead."
  )
  @inlinable
  @warn_unqualified_access
  public func forEach<
    DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination> {
    _StackReducer(
      parent: self,
      destination: destination(),
      toStackState: StatePath(toStackState, elements: Destination.State.self),
      toStackAction: CaseAccess(toStackAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension PresentationState {
  /// The presented state when it is in the case at `casePath`. Setting `nil` dismisses it; setting
  /// a value while another case is presented changes nothing and is reported.
  @available(
    *, deprecated, message: "Use the version of this subscript with case key paths, instead."
  )
  public subscript<Case>(
    case casePath: AnyCasePath<State, Case>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Case? {
    get { wrappedValue.flatMap(casePath.extract(from:)) }
    set {
      wrappedValue = _settingCase(
        of: wrappedValue, to: newValue, embed: casePath.embed, extract: casePath.extract(from:),
        location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }
}

extension PresentationState where State: CasePathable {
  /// The presented state when it is in the case at `casePath`. Setting `nil` dismisses it; setting
  /// a value while another case is presented changes nothing and is reported.
  public subscript<Case>(
    case casePath: CaseKeyPath<State, Case>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Case? {
    get { wrappedValue.flatMap { $0[case: casePath] } }
    set {
      wrappedValue = _settingCase(
        of: wrappedValue, to: newValue, embed: { casePath($0) }, extract: { $0[case: casePath] },
        location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }
}

extension StackState {
  /// The element with `id` when it is in the case at `casePath`. Setting `nil` removes the
  /// element; setting a value while the element is in another case changes nothing and is
  /// reported.
  @available(
    *, deprecated, message: "Use the version of this subscript with case key paths, instead."
  )
  public subscript<Case>(
    id id: StackElementID,
    case casePath: AnyCasePath<Element, Case>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Case? {
    get { self[id: id].flatMap(casePath.extract(from:)) }
    set {
      self[id: id] = _settingCase(
        of: self[id: id], to: newValue, embed: casePath.embed, extract: casePath.extract(from:),
        location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }
}

/// What optional enum state becomes when one of its cases is set through a case subscript:
/// the new case's value, `nil` when the case was set to `nil`, and unchanged (reported) when
/// the state is in another case, as TCA's subscripts behave.
func _settingCase<Root, Case>(
  of root: Root?,
  to newValue: Case?,
  embed: (Case) -> Root,
  extract: (Root) -> Case?,
  location: IssueLocation
) -> Root? {
  guard let root else { return newValue.map(embed) }
  guard extract(root) != nil else {
    location.report("Can't modify unrelated case \"\(_caseName(of: root))\"")
    return root
  }
  return newValue.map(embed)
}

/// The name of the case `value` is in, for messages: its label as a mirror shows it.
func _caseName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum, let label = mirror.children.first?.label { return label }
  return String(describing: value)
}
