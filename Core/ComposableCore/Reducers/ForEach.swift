import IssueReporting

/// The action of one element of a collection feature: `.element(id:action:)`.
@CasePathable
public enum IdentifiedAction<ID: Hashable & Sendable, Action>: CasePathable {
  /// An action sent to the element with `id`.
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}

/// The identified action of an element reducer: `IdentifiedActionOf<Row>`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

/// An action addressed to one element of a collection by id: ``IdentifiedAction`` and
/// ``StackAction`` both are, which gives both the `[id:]` case key path.
public protocol _ElementAction<ElementID, ElementAction>: SendableMetatype {
  /// The id of an element.
  associatedtype ElementID: Hashable & Sendable
  /// The action of an element.
  associatedtype ElementAction
  /// The action sent to the element with `id`.
  static func _element(id: ElementID, action: ElementAction) -> Self
  /// The element id and action, when this is an element action.
  var _element: (id: ElementID, action: ElementAction)? { get }
}

extension IdentifiedAction: _ElementAction {
  /// `.element(id:action:)`.
  public static func _element(id: ID, action: Action) -> Self {
    .element(id: id, action: action)
  }

  /// The id and action of `.element(id:action:)`.
  public var _element: (id: ID, action: Action)? {
    switch self {
    case .element(let id, let action): (id, action)
    }
  }
}

extension Case where Value: _ElementAction {
  /// The actions of one element, as a case key path: `\.rows[id: 1].toggled`,
  /// `\.path[id: 0].detail.saveTapped`.
  public subscript(id id: Value.ElementID) -> Case<Value.ElementAction> {
    Case<Value.ElementAction>(
      embed: { action in self._embed(Value._element(id: id, action: action)) },
      extract: { (root: Any) -> Value.ElementAction? in
        guard let element = self._extract(from: root)?._element, element.id == id else {
          return nil
        }
        return element.action
      }
    )
  }
}

extension Reducer {
  /// Runs `element` on the element of an identified array that an `.element(id:action:)` names.
  /// Removing an element cancels every effect it started; siblings never cancel each other.
  ///
  /// An action for an id that is not in the array is reported as a runtime issue.
  public func forEach<
    ElementState, ElementAction, ID: Hashable & Sendable,
    Element: Reducer<ElementState, ElementAction>
  >(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
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
      toElementAction: CaseAccess(toElementAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer `forEach` returns: the parent, plus an element reducer for each element.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  let toElementAction: CaseAccess<Parent.Action, IdentifiedAction<ID, Element.Action>>
  let location: IssueLocation

  /// Runs the element first for element actions, then the parent.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    var elementEffects = Effect<Parent.Action>.none
    if case .element(let id, let elementAction)? = toElementAction.extract(from: action) {
      if state[keyPath: toElementsState][id: id] == nil {
        location.report(
          """
          A "forEach" at "\(location)" received an action for a missing element:

            Action:
              \(String(describing: action))

          This usually means an effect of the element kept running after the element was \
          removed, or an action was sent to a row that is no longer shown.
          """
        )
      } else {
        let toElementAction = self.toElementAction
        elementEffects = element.reduce(
          into: &state[keyPath: toElementsState][id: id]!,
          action: elementAction
        )
        .map { toElementAction.embed(.element(id: id, action: $0)) }
        .scoped(to: EffectScope(location: toElementsState, id: id))
      }
    }
    // Identifier storage is shared until the parent changes membership, so this comparison is
    // constant-time for the common case of an element action that removes nothing.
    let idsBefore = state[keyPath: toElementsState].ids
    let parentEffects = parent.reduce(into: &state, action: action)
    let idsAfter = state[keyPath: toElementsState].ids
    var removals = Effect<Parent.Action>.none
    if idsBefore != idsAfter {
      removals = .merge(
        idsBefore.subtracting(idsAfter).map {
          .cancelScope(EffectScope(location: toElementsState, id: $0))
        }
      )
    }
    return .merge(elementEffects, parentEffects, removals)
  }
}
