import IssueReporting

/// An action of a navigation stack: an action of one element, a pop, or a push.
@CasePathable
public enum StackAction<State, Action>: CasePathable {
  /// An action sent to the element with `id`.
  indirect case element(id: StackElementID, action: Action)
  /// Removes the element with `id` and every element above it (the user went back).
  case popFrom(id: StackElementID)
  /// Appends `state` with `id` (the user followed a link).
  indirect case push(id: StackElementID, state: State)
}

/// Recordable when the elements' actions are. A push carries an element's state, so encoding or
/// decoding one needs that state to be `Codable` as well, and says so with an error when it is not.
extension StackAction: Codable where Action: Codable {
  private enum CodingKeys: String, CodingKey {
    case element, popFrom, push
  }

  private enum PayloadKeys: String, CodingKey {
    case id, action, state
  }

  /// Reads the form `encode(to:)` writes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard let key = container.allKeys.first, container.allKeys.count == 1 else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath,
          debugDescription: "A stack action has exactly one of element, popFrom and push."))
    }
    let payload = try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: key)
    let id = try payload.decode(StackElementID.self, forKey: .id)
    switch key {
    case .element:
      self = .element(id: id, action: try payload.decode(Action.self, forKey: .action))
    case .popFrom:
      self = .popFrom(id: id)
    case .push:
      guard let stateType = State.self as? any Decodable.Type else {
        throw DecodingError.typeMismatch(
          State.self,
          .init(
            codingPath: payload.codingPath,
            debugDescription: "\(State.self) is not Decodable, so a push cannot be read."))
      }
      let state = try stateType.init(from: payload.superDecoder(forKey: .state))
      self = .push(id: id, state: state as! State)
    }
  }

  /// Writes `{"element": {"id": 1, "action": …}}`, `{"popFrom": {"id": 1}}` or
  /// `{"push": {"id": 1, "state": …}}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .element(let id, let action):
      var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .element)
      try payload.encode(id, forKey: .id)
      try payload.encode(action, forKey: .action)
    case .popFrom(let id):
      var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .popFrom)
      try payload.encode(id, forKey: .id)
    case .push(let id, let state):
      var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .push)
      try payload.encode(id, forKey: .id)
      guard let state = state as? any Encodable else {
        throw EncodingError.invalidValue(
          state,
          .init(
            codingPath: payload.codingPath,
            debugDescription: "\(State.self) is not Encodable, so a push cannot be written."))
      }
      try state.encode(to: payload.superEncoder(forKey: .state))
    }
  }
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

/// The stack action of a path reducer: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: _ElementAction {
  /// `.element(id:action:)`.
  public static func _element(id: StackElementID, action: Action) -> Self {
    .element(id: id, action: action)
  }

  /// The id and action of `.element(id:action:)`; `nil` for a push or pop.
  public var _element: (id: StackElementID, action: Action)? {
    guard case .element(let id, let action) = self else { return nil }
    return (id, action)
  }
}

extension Reducer {
  /// Runs `destination` on the stack element an `.element(id:action:)` names, and applies pushes
  /// and pops. Popping or removing an element cancels its effects, and `dismiss()` from an
  /// element's effect pops it.
  ///
  /// An action for an id that is not in the stack is reported as a runtime issue.
  @_disfavoredOverload
  @inlinable
  public func forEach<
    DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
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

/// The reducer the stack `forEach` returns.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: _BuiltReducer<Parent>
  @usableFromInline let destination: Destination
  /// Where the stack is: for an `@ObservableState` parent, the storage behind `path`, changed in
  /// place (through the property's accessors, an element's action copied the whole stack, and
  /// with it any collection the element changed).
  @usableFromInline let toStackState: StatePath<Parent.State, StackState<Destination.State>>
  @usableFromInline
  let toStackAction: CaseAccess<Parent.Action, StackAction<Destination.State, Destination.Action>>
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent,
    destination: Destination,
    toStackState: StatePath<Parent.State, StackState<Destination.State>>,
    toStackAction: CaseAccess<
      Parent.Action, StackAction<Destination.State, Destination.Action>
    >,
    location: IssueLocation
  ) {
    self.parent = _BuiltReducer(parent)
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.location = location
  }

  // Inlinable, as every action of a feature with a stack passes through here, and an element's
  // action is the common one: unspecialised, each call looked up the generic metadata of the
  // stack, its elements and their effects, and ran the path reducer through protocol witnesses
  // (about 17,000 instructions for one element action).
  /// Runs the element for element actions, then the parent, then applies a push or pop.
  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let stackAction = toStackAction.extract(from: action)
    var destinationEffects = Effect<Parent.Action>.none
    // Elements removed by a reducer outside this one since its last action: their work ends now.
    let (idsAtEntry, idsSeen) = toStackState.read(&state) { ($0._ids, $0._idsSeenWithWork) }
    let outerCancellation: Effect<Parent.Action> =
      if let idsSeen, idsSeen != idsAtEntry {
        removals(from: idsSeen, to: idsAtEntry)
      } else {
        .none
      }

    if case .element(let id, let elementAction)? = stackAction {
      let effects = toStackState.modifyElement(&state) { stack in
        stack.modifyElement(id: id) { destination.reduce(into: &$0, action: elementAction) }
      }
      if let effects {
        if !effects.isNone { destinationEffects = elementEffects(effects, id: id) }
      } else {
        location.reportMissingElement(action: elementAction, inStack: true)
      }
    }

    // The ids' storage is shared until the parent or a push or pop changes the stack, so the
    // comparison below is constant-time for an element action that leaves the stack alone.
    let idsBefore = toStackState.read(&state) { $0.ids }
    let parentEffects = parent.reduce(into: &state, action: action)

    switch stackAction {
    case .popFrom(let id)?: pop(from: id, in: &state, idsBefore: idsBefore)
    case .push(let id, let element)?: push(element, id: id, in: &state)
    case .element?, nil: break
    }

    let idsAfter = toStackState.read(&state) { $0.ids }
    // Written only when they differ: each write of the stack tells its observers it changed.
    if idsSeen != nil ? idsSeen != idsAfter : destinationEffects.canOutliveItsAction {
      noteIDs(idsAfter, in: &state)
    }
    var effects = destinationEffects.merge(with: parentEffects)
    if !outerCancellation.isNone { effects = outerCancellation.merge(with: effects) }
    guard idsBefore != idsAfter else { return effects }
    // As in `forEach`: merged pairwise, so a push, which removes nothing, allocates no array.
    return effects.merge(with: removals(from: idsBefore, to: idsAfter))
  }

  /// Remembers the ids this reducer leaves the stack with (shared storage: no copy), or forgets
  /// them once no element is left to have work.
  @inlinable @inline(never)
  func noteIDs(_ ids: [StackElementID], in state: inout Parent.State) {
    toStackState.modify(&state) { $0._idsSeenWithWork = ids.isEmpty ? nil : ids }
  }

  // Inlinable, to run specialised: run generic, wrapping each action in `.element(id:action:)`
  // looked up the metadata of that case's tuple (about 325 instructions an effect). Out of line,
  // as only an element action that returned an effect gets here.
  /// An element's effects, sent back as its actions, able to pop it with `dismiss()`, and scoped
  /// to it so that they end when it is popped.
  @inlinable @inline(never)
  func elementEffects(_ effects: Effect<Destination.Action>, id: StackElementID) -> Effect<
    Parent.Action
  > {
    let toStackAction = self.toStackAction
    typealias Action = StackAction<Destination.State, Destination.Action>
    // As a presented child's (`_PresentationReducer.presentedEffects`), a lone `.send` is
    // embedded here, without the closure `map` would allocate.
    if case .send(let action) = effects.operation {
      return .send(toStackAction.embed(Action.element(id: id, action: action)))
    }
    return
      effects
      .map { toStackAction.embed(Action.element(id: id, action: $0)) }
      .dismissing(with: toStackAction.embed(Action.popFrom(id: id)))
      .scoped(to: EffectScope(location: toStackState.effectLocation, id: EffectID(id)))
  }

  @usableFromInline
  func pop(from id: StackElementID, in state: inout Parent.State, idsBefore: [StackElementID]) {
    if toStackState.read(&state, { $0.index(id: id) != nil }) {
      toStackState.modify(&state) { $0.pop(from: id) }
    } else if !idsBefore.contains(id) {
      location.reportMissingPop(id: id, ids: toStackState.read(&state) { $0.ids })
    }
  }

  @usableFromInline
  func push(_ element: Destination.State, id: StackElementID, in state: inout Parent.State) {
    if toStackState.read(&state, { $0.index(id: id) != nil }) {
      location.reportRepeatedPush(id: id, ids: toStackState.read(&state) { $0.ids })
    } else {
      // In a test, ids are handed out in order: one from further ahead is a mistake in the test.
      @Dependency(\.context) var context
      @Dependency(\.stackElementID) var stackElementID
      if context == .test, case let next = stackElementID.peek(), id.rawValue > next.rawValue {
        location.reportUnexpectedPushID(id, expected: next)
      }
      toStackState.modify(&state) { $0.append(element, id: id) }
    }
  }

  /// Cancels the effects of the elements that are gone. Out of line: only a push or a pop
  /// changes the stack.
  @usableFromInline
  func removals(from idsBefore: [StackElementID], to idsAfter: [StackElementID]) -> Effect<
    Parent.Action
  > {
    .cancelRemoved(from: idsBefore, to: idsAfter, at: toStackState.effectLocation)
  }
}
