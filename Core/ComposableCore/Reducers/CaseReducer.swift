import CasePaths

/// A reducer made of the cases of an enum, each case a child reducer or plain state: what
/// `@Reducer enum Destination { case detail(Detail) … }` generates. Its `State` and `Action` are
/// enums with a case per reducer case, and its body is static, since the enum has no instances.
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, State.StateReducer.Action == Action, Body: Reducer<State, Action> {
  // Restated so that an enum writing its own `static var body: some ReducerOf<Self>` has its
  // `Body` inferred from that, rather than from the instance `body` below or `Reducer`'s `Never`.
  associatedtype State = State
  associatedtype Action = Action
  associatedtype Body = Body

  /// A switchable enum of the child stores of each case, for `store.case`.
  associatedtype CaseScope

  /// The reducer of every case, scoped to its case.
  @ReducerBuilder<State, Action>
  static var body: Body { get }

  /// The child store of the case `store`'s state is in now.
  @MainActor
  static func scope(_ store: Store<State, Action>) -> CaseScope
}

extension CaseReducer {
  /// The static ``body``.
  public var body: Body { Self.body }
}

/// The state of a ``CaseReducer``, which knows its reducer, so that operators such as
/// `ifLet(\.$destination, action: \.destination)` need no trailing closure.
public protocol CaseReducerState {
  /// The enum reducer this is the state of.
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self

  /// Whether the current case holds an alert or dialog, which presentation dismisses once the
  /// user acts on it. `@Reducer enum` answers with a `switch` over its cases.
  var _$isEphemeral: Bool { get }

  /// What tells the current child from another, after its type: the case, then the payload's
  /// id when it is `Identifiable` (and so on into a nested enum reducer's state). A different
  /// identity is a new presentation, whose predecessor's effects end.
  var _$presentationIdentity: _PresentationIdentity { get }

  /// The case whose child `keyPath` reaches when it is `presented` followed by that case
  /// (`\.destination?.detail`), for a store of that child to read it without the key path;
  /// `nil` for any other path. `@Reducer enum` compares the path with each case's.
  static func _$casePath<Root, Child>(
    of keyPath: KeyPath<Root, Child?>, through presented: KeyPath<Root, Self?>
  ) -> CaseKeyPath<Self, Child>?
}

extension CaseReducerState {
  /// No case to find.
  public static func _$casePath<Root, Child>(
    of keyPath: KeyPath<Root, Child?>, through presented: KeyPath<Root, Self?>
  ) -> CaseKeyPath<Self, Child>? {
    nil
  }
}

/// Whether the case that `embed` makes holds a `Child`: `@Reducer enum` asks before it builds a
/// case's path to compare, which costs far more than this.
@inlinable
public func _isPayload<Enum, Value, Child>(of _: (Value) -> Enum, _: Child.Type) -> Bool {
  Value.self == Child.self
}

extension Reducer {
  /// Presents an enum reducer's state: `.ifLet(\.$destination, action: \.destination)`, the
  /// destination's reducer found from its state type.
  @inlinable
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, _BuiltReducer<DestinationState.StateReducer.Body>>
  where DestinationState.StateReducer.Action == DestinationAction {
    ifLet(
      toPresentationState,
      action: toPresentationAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs an enum reducer on a navigation stack: `.forEach(\.path, action: \.path)`, the path's
  /// reducer found from its state type.
  @inlinable
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, _BuiltReducer<DestinationState.StateReducer.Body>>
  where DestinationState.StateReducer.Action == DestinationAction {
    forEach(
      toStackState,
      action: toStackAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

extension Store where State: CaseReducerState, State.StateReducer.Action == Action {
  /// The case the store's state is in, with a child store for a reducer case:
  /// `switch store.case { case .detail(let store): … }`.
  public var `case`: State.StateReducer.CaseScope {
    State.StateReducer.scope(self)
  }
}
