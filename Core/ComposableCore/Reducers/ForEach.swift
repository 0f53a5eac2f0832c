import IssueReporting
import OrderedCollections

/// The action of one element of a collection feature: `.element(id:action:)`.
@CasePathable
public enum IdentifiedAction<ID: Hashable & Sendable, Action>: CasePathable {
  /// An action sent to the element with `id`.
  case element(id: ID, action: Action)
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
/// Recordable when the id and the element's action are.
extension IdentifiedAction: Codable where ID: Codable, Action: Codable {}

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
  @_disfavoredOverload
  @inlinable
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
  @usableFromInline let parent: _BuiltReducer<Parent>
  @usableFromInline let element: Element
  @usableFromInline
  let toElementsState: StatePath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline
  let toElementAction: CaseAccess<Parent.Action, IdentifiedAction<ID, Element.Action>>
  @usableFromInline let location: IssueLocation
  @usableFromInline let elementScopes = LastElementScope<ID>()

  @usableFromInline
  init(
    parent: Parent,
    element: Element,
    toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CaseAccess<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    location: IssueLocation
  ) {
    self.parent = _BuiltReducer(parent)
    self.element = element
    self.toElementsState = StatePath(toElementsState, elements: Element.State.self)
    self.toElementAction = toElementAction
    self.location = location
  }

  // Inlinable, as every row action passes through here: specialised for the feature's types,
  // the identified array's lookups are direct calls instead of generic ones.
  /// Runs the element first for element actions, then the parent.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    var elementEffects = Effect<Parent.Action>.none
    if case .element(let id, let elementAction)? = toElementAction.extract(from: action) {
      if let effects = reduceElement(id: id, action: elementAction, in: &state) {
        if !effects.isNone { elementEffects = self.elementEffects(effects, id: id) }
      } else {
        location.reportMissingElement(action: action, inStack: false)
      }
    }
    // Identifier storage is shared until the parent changes membership, so this comparison is
    // constant-time for the common case of an element action that removes nothing.
    let idsBefore = toElementsState.read(&state) { $0.ids }
    let parentEffects = parent.reduce(into: &state, action: action)
    let idsAfter = toElementsState.read(&state) { $0.ids }
    guard idsBefore != idsAfter else {
      return elementEffects.merge(with: parentEffects)
    }
    // Merged pairwise: a variadic `merge` allocates its array, also when all but one are none.
    return elementEffects.merge(with: parentEffects).merge(
      with: .cancelRemoved(from: idsBefore, to: idsAfter, at: toElementsState.effectLocation))
  }

  // Out of line, though specialised, as `Effect.embedded(by:at:)`: only an element action that
  // returned an effect gets here.
  /// An element's effects, sent back as its actions and scoped to it, so that they end when it is
  /// removed. A lone `.send` is embedded in place, without the closure `map` would allocate.
  @inlinable @inline(never)
  func elementEffects(_ effects: Effect<Element.Action>, id: ID) -> Effect<Parent.Action> {
    if case .send(let action) = effects.operation {
      return .send(toElementAction.embed(.element(id: id, action: action)))
    }
    let toElementAction = self.toElementAction
    return
      effects
      .map { toElementAction.embed(.element(id: id, action: $0)) }
      .scoped(to: elementScopes.scope(for: id, at: toElementsState.effectLocation))
  }

  /// Runs the element reducer on the element with `id`, or returns `nil` when there is none.
  /// The element is found by id and edited by position: the id-keyed accessor of an identified
  /// array removes and reinserts the element.
  @inlinable
  func reduceElement(
    id: ID,
    action: Element.Action,
    in state: inout Parent.State
  ) -> Effect<Element.Action>? {
    guard let index = toElementsState.read(&state, { $0.index(id: id) }) else { return nil }
    return toElementsState.modifyElement(&state) {
      element.reduce(into: &$0[index], action: action)
    }
  }
}
