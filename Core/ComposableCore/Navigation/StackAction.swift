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
      toStackState: StatePath(toStackState),
      toStackAction: CaseAccess(toStackAction),
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer the stack `forEach` returns.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  /// Where the stack is: for an `@ObservableState` parent, the storage behind `path`, changed in
  /// place (through the property's accessors, an element's action copied the whole stack, and
  /// with it any collection the element changed).
  let toStackState: StatePath<Parent.State, StackState<Destination.State>>
  let toStackAction: CaseAccess<Parent.Action, StackAction<Destination.State, Destination.Action>>
  let location: IssueLocation

  /// Runs the element for element actions, then the parent, then applies a push or pop.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let stackAction = toStackAction.extract(from: action)
    var destinationEffects = Effect<Parent.Action>.none
    let toStackAction = self.toStackAction

    if case .element(let id, let elementAction)? = stackAction {
      if toStackState.read(&state, { $0[id: id] == nil }) {
        location.report(
          """
          A "forEach" at "\(location)" received an action for a missing stack element:

            Action:
              \(String(describing: action))

          This usually means an effect of the element kept running after it was popped.
          """
        )
      } else {
        destinationEffects = toStackState.modify(&state) {
          destination.reduce(into: &$0[id: id]!, action: elementAction)
        }
        .map { toStackAction.embed(StackAction.element(id: id, action: $0)) }
        .dismissing(
          with: toStackAction.embed(
            StackAction<Destination.State, Destination.Action>.popFrom(id: id))
        )
        .scoped(to: EffectScope(location: toStackState.keyPath, id: id))
      }
    }

    let idsBefore = toStackState.read(&state) { $0.ids }
    let parentEffects = parent.reduce(into: &state, action: action)

    switch stackAction {
    case .popFrom(let id)?:
      if toStackState.read(&state, { $0[id: id] != nil }) {
        toStackState.modify(&state) { $0.pop(from: id) }
      } else if !idsBefore.contains(id) {
        location.report(
          """
          A "forEach" at "\(location)" received a "popFrom" action for a missing stack element \
          \(id). The element may have been popped already.
          """
        )
      }
    case .push(let id, let element)?:
      if toStackState.read(&state, { $0.ids.contains(id) }) {
        location.report(
          """
          A "forEach" at "\(location)" received a "push" action for an element id \(id) that is \
          already in the stack. Ids must be unique: take new ones from the "stackElementID" \
          dependency.
          """
        )
      } else {
        toStackState.modify(&state) { $0.append(element, id: id) }
      }
    case .element?, nil:
      break
    }

    let idsAfter = toStackState.read(&state) { $0.ids }
    var removals = Effect<Parent.Action>.none
    if idsBefore != idsAfter {
      let remaining = Set(idsAfter)
      removals = .merge(
        idsBefore.filter { !remaining.contains($0) }.map {
          .cancelScope(EffectScope(location: toStackState.keyPath, id: $0))
        }
      )
    }
    return .merge(destinationEffects, parentEffects, removals)
  }
}
