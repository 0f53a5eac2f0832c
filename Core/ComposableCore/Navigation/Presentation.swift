/// State that goes away as soon as the user acts on it, such as an alert or a confirmation
/// dialog: presenting it with `ifLet` needs no child reducer.
public protocol _EphemeralState<Action> {
  /// The actions its buttons send.
  associatedtype Action
}

extension Reducer {
  /// Runs `destination` while the presentation state is non-`nil`. `.dismiss` nils the state;
  /// nil-ing it (or presenting a different child) cancels the child's effects; `dismiss()` from a
  /// child effect sends `.dismiss`.
  @_disfavoredOverload
  @inlinable
  public func ifLet<
    DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
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

  /// Presents ephemeral state, such as an alert, which needs no reducer: any button action
  /// dismisses it after the parent has handled the action.
  @_disfavoredOverload
  @inlinable
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState,
      action: toPresentationAction,
      destination: { EmptyReducer() },
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}

/// The reducer the presentation `ifLet` returns.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: _BuiltReducer<Parent>
  @usableFromInline let destination: Destination
  @usableFromInline
  let toPresentationAction: CaseAccess<Parent.Action, PresentationAction<Destination.Action>>
  @usableFromInline let location: IssueLocation
  @usableFromInline let presentedCases = PresentedCases<Destination.State>()
  /// Where the presentation state is read and a presented child changed in place, without a
  /// key path's getter and setter when the state names the storage behind the key path the
  /// feature wrote: `@ObservableState` names it as a tracked property's, so that its
  /// readers are told when the child is replaced (``StatePath``); a plain state's `@Presents`
  /// stores `$name` itself, and `@Reducer` names the wrapper behind a `@PresentationState`
  /// projection, which has no readers to tell. Its key path is also where the child's effects
  /// are scoped.
  @usableFromInline let storage: StatePath<Parent.State, PresentationState<Destination.State>>

  @usableFromInline
  init(
    parent: Parent,
    destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: CaseAccess<Parent.Action, PresentationAction<Destination.Action>>,
    location: IssueLocation
  ) {
    self.parent = _BuiltReducer(parent)
    self.destination = destination
    self.toPresentationAction = toPresentationAction
    self.location = location
    if !(Parent.State.self is any ObservableState.Type),
      let path = PresentationState<Destination.State>.storage(
        behind: toPresentationState, in: Parent.State.self)
    {
      self.storage = StatePath(path)
    } else {
      self.storage = StatePath(toPresentationState)
    }
  }

  // Inlinable, as every action of a presenting feature passes through here: specialised for the
  // feature's types, it does not look up generic metadata on each call.
  /// Runs the child for presented actions, then the parent; then applies dismissal and cancels
  /// the effects of a child that went away.
  @inlinable @inline(__always)
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let presentationAction = toPresentationAction.extract(from: action)
    // Only what is needed is read before the reducers run: a copy of the presented child held
    // while it changes would make every collection inside it copy itself.
    let (wasPresented, assignmentsBefore, hadWork) = storage.read(&state) {
      ($0.isPresented, $0.assignments, $0.work != nil)
    }
    // A child that started work and was taken away or replaced outside this operator since.
    let outerCancellation: Effect<Parent.Action> =
      hadWork ? cancelWorkGoneOutside(in: &state, assignments: assignmentsBefore) : .none
    var destinationEffects = Effect<Parent.Action>.none
    var isDismissing = false
    // The child `.dismiss` is for: the parent, which runs first, may put another in its place.
    var dismissedIdentity: PresentationIdentity?

    switch presentationAction {
    case .presented(let destinationAction)?:
      if wasPresented {
        destinationEffects =
          presentedCases.childHasWork
          ? reducePresentedWatchingIdentity(into: &state, action: destinationAction)
          : reducePresented(into: &state, action: destinationAction)
      } else {
        location.reportAbsentDestination(action: action)
      }
    case .dismiss?:
      if !wasPresented { location.reportAbsentDestination(action: action) }
      isDismissing = true
      dismissedIdentity = storage.read(&state) { $0.presented.map(presentedCases.identity(of:)) }
    case nil:
      break
    }

    // The child as the parent reducer receives it, needed afterwards only if the parent takes it
    // away or replaces it while the child has work to end: a reference to its box, which the
    // parent copies only if it changes the child in place.
    let old = wasPresented && presentedCases.childHasWork ? storage.read(&state) { $0.box } : nil
    let parentEffects = parent.reduce(into: &state, action: action)
    let (isPresented, assignmentsAfter) = storage.read(&state) {
      ($0.isPresented, $0.assignments)
    }
    let wasReassigned = assignmentsAfter != assignmentsBefore

    // A child the parent put in place of the dismissed one, on the dismissal itself, stays.
    var isCleared = isDismissing
    if isDismissing, wasReassigned, isPresented,
      storage.read(&state, { $0.presented.map(presentedCases.identity(of:)) }) != dismissedIdentity
    {
      isCleared = false
    }
    if !isDismissing, case .presented? = presentationAction, !wasReassigned, isPresented,
      !presentedCases.isPlainType,
      storage.read(&state, { $0.presented.map(presentedCases.isEphemeral) }) == true,
      isForEphemeral(presentationAction, in: &state)
    {
      // An alert or dialog closes once the user has acted on it.
      isCleared = true
    }
    // Through the same path as the child's changes, which tells the property's readers.
    if isCleared { storage.modify(&state) { $0.presented = nil } }

    // The child that was presented is gone when nothing is presented now, or when the parent put
    // a different child in its place; only then do its effects end, if it ever started any.
    // A child starting work is one whose effects can outlive the action: only a child that has
    // ever returned such effects is asked.
    let startedWork =
      presentedCases.childHasWork && !destinationEffects.isNone
      && destinationEffects.canOutliveItsAction
    if startedWork || hadWork {
      noteWork(in: &state, isPresented: isPresented && !isCleared, startedWork: startedWork)
    }
    // Merged pairwise, and the outer cancellation only when there is one: a variadic merge
    // builds an array on every action.
    var effects = destinationEffects.merge(with: parentEffects)
    if !outerCancellation.isNone { effects = outerCancellation.merge(with: effects) }
    guard let old else { return effects }
    if isPresented, !isCleared, !wasReassigned { return effects }
    let current = isCleared ? nil : storage.read(&state) { $0.presented }
    return effects.merge(with: dismissal(of: old.value, replacedBy: current))
  }

  /// Cancels the work of a child that is no longer the one presented, changed outside this
  /// operator since its last action (TCA's "outer cancellation"). Out of line: only a child that
  /// started work gets here.
  @inlinable @inline(never)
  func cancelWorkGoneOutside(
    in state: inout Parent.State, assignments: UInt
  ) -> Effect<Parent.Action> {
    guard let work = storage.read(&state, { $0.work }) else { return .none }
    // Unchanged since the operator saw it: still the child that started the work.
    if work.assignments == assignments, storage.read(&state, { $0.isPresented }) { return .none }
    if let presented = storage.read(&state, { $0.presented }),
      scope(presentedCases.identity(of: presented)) == work.scope
    {
      storage.modify(&state) {
        $0.work = _PresentationWork(scope: work.scope, assignments: assignments)
      }
      return .none
    }
    storage.modify(&state) { $0.work = nil }
    return .cancelScope(work.scope)
  }

  /// Remembers, in the state, the scope of the work the child started on this action; forgets
  /// it once the child is gone, or replaced by the parent inside this operator (whose dismissal
  /// cancelled it).
  @inlinable @inline(never)
  func noteWork(in state: inout Parent.State, isPresented: Bool, startedWork: Bool) {
    let assignments = storage.read(&state) { $0.assignments }
    guard isPresented else {
      if storage.read(&state, { $0.work != nil }) { storage.modify(&state) { $0.work = nil } }
      return
    }
    if startedWork, let scope = presentedCases.lastScope?.scope {
      // Written only when new: each write of the presentation state tells its observers.
      let work = storage.read(&state) { $0.work }
      if work?.scope !== scope || work?.assignments != assignments {
        storage.modify(&state) {
          $0.work = _PresentationWork(scope: scope, assignments: assignments)
        }
      }
      return
    }
    guard let work = storage.read(&state, { $0.work }), work.assignments != assignments,
      let presented = storage.read(&state, { $0.presented })
    else { return }
    let isSameChild = scope(presentedCases.identity(of: presented)) == work.scope
    storage.modify(&state) {
      $0.work = isSameChild ? _PresentationWork(scope: work.scope, assignments: assignments) : nil
    }
  }

  /// Whether the presented action is for the alert or dialog presented, not for a sibling case.
  /// Out of line: binding the action out of its case copied it on every presented action, where
  /// only an alert's actions need it.
  @inlinable @inline(never)
  func isForEphemeral(
    _ presentationAction: PresentationAction<Destination.Action>?,
    in state: inout Parent.State
  ) -> Bool {
    guard case .presented(let destinationAction)? = presentationAction else { return false }
    return storage.read(&state) {
      $0.presented.map { _isAction(destinationAction, ofEphemeralIn: $0) } ?? false
    }
  }

  /// Runs the presented child on its action, returning its effects as the parent's.
  @inlinable @inline(__always)
  func reducePresented(
    into state: inout Parent.State, action: Destination.Action
  ) -> Effect<Parent.Action> {
    let childEffects = storage.modify(&state) {
      $0.modifyPresented { destination.reduce(into: &$0, action: action) }!
    }
    guard !childEffects.isNone, let presented = storage.read(&state, { $0.presented }) else {
      return .none
    }
    return presentedEffects(childEffects, of: presented)
  }

  /// Runs a presented child that has started work: if it makes itself another child (a new
  /// id), its old work ends, as it does when the parent replaces it. Out of line, as most
  /// children never start such work.
  @inlinable @inline(never)
  func reducePresentedWatchingIdentity(
    into state: inout Parent.State, action: Destination.Action
  ) -> Effect<Parent.Action> {
    let before = storage.read(&state) { $0.presented.map(presentedCases.identity(of:)) }
    let effects = reducePresented(into: &state, action: action)
    guard let before,
      let now = storage.read(&state, { $0.presented.map(presentedCases.identity(of:)) }),
      now != before
    else { return effects }
    return .merge(.cancelScope(scope(before)), effects)
  }

  // Out of line, though specialised, as `forEach`'s element effects: unspecialised, each child
  // effect looked up the generic metadata of the actions and effects it wraps.
  /// The child's effects, sent back as presented actions, able to dismiss the child, and scoped
  /// to this presentation so that they end with it.
  @inlinable @inline(never)
  func presentedEffects(
    _ effects: Effect<Destination.Action>,
    of presented: Destination.State
  ) -> Effect<Parent.Action> {
    let toPresentationAction = self.toPresentationAction
    // The commonest child effect, embedded here, as it needs neither dismissal nor a scope:
    // through `map` its closure would be allocated on every such action.
    if case .send(let action) = effects.operation {
      return .send(toPresentationAction.embed(.presented(action)))
    }
    // Asked once: the mapped effect has the same shape, so `dismissing(with:)` would ask again.
    let canOutliveItsAction = effects.canOutliveItsAction
    var mapped = effects.map { toPresentationAction.embed(PresentationAction.presented($0)) }
    if canOutliveItsAction {
      presentedCases.childHasWork = true
      mapped = mapped.dismissingRuns(
        with: toPresentationAction.embed(PresentationAction<Destination.Action>.dismiss))
    }
    return mapped.scoped(to: scope(presentedCases.identity(of: presented)))
  }

  /// Cancels the effects of `old` unless `current` is the same child (by case and id).
  @usableFromInline
  func dismissal(
    of old: Destination.State,
    replacedBy current: Destination.State?
  ) -> Effect<Parent.Action> {
    let identity = presentedCases.identity(of: old)
    if let current, identity == presentedCases.identity(of: current) { return .none }
    return .cancelScope(scope(identity))
  }

  /// The scope of the effects of the child with `identity`: the one made last, while the same
  /// child is presented, so that its effects share one and the store matches them by reference.
  @usableFromInline
  func scope(_ identity: PresentationIdentity) -> EffectScope {
    if let last = presentedCases.lastScope, last.identity == identity { return last.scope }
    let scope = EffectScope(location: storage.effectLocation, id: EffectID(identity))
    presentedCases.lastScope = (identity, scope)
    return scope
  }
}
