import CustomDump
import IssueReporting

/// State with presented properties: `@ObservableState` (or, for plain state, `@Reducer`) names the
/// storage behind each `$name` and `name`, where a presented child's store reads it without
/// going through the accessors, and, in plain state, a presentation reducer changes the child in
/// place (in observable state it goes through ``_TrackedStorage``, which tells readers too).
public protocol _PresentationStorage {
  /// The stored `PresentationState` behind `keyPath` (`\.$destination` or `\.destination`), or
  /// `nil`.
  static func _$presentationStorage(_ keyPath: AnyKeyPath) -> AnyKeyPath?

  /// A reader of the child at `keyPath` when it is one case of an enum reducer's presented
  /// state (`\.destination?.detail`), reached through the presentation's storage; `nil`
  /// otherwise (see ``_presentedCaseReader(_:through:storage:)``).
  static func _$presentedCase<Child>(_ keyPath: AnyKeyPath, child: Child.Type) -> Any?
}

extension _PresentationStorage {
  /// No presented enum cases to find.
  public static func _$presentedCase<Child>(_ keyPath: AnyKeyPath, child: Child.Type) -> Any? {
    nil
  }
}

/// What `@Reducer` and `@ObservableState` generate for each presented property: when `keyPath`
/// is `presented` followed by one case of the enum reducer's state (`\.destination?.detail`),
/// a reader of that case's child through the presentation `storage`, made once for a store of
/// the child. Such a store reads its child after every action; through the key path, which goes
/// through the presented property's getter and the enum's dynamic member subscript, that cost
/// about 5,000 instructions.
@inlinable
public func _presentedCaseReader<Root, Presented: CaseReducerState, Child>(
  _ keyPath: KeyPath<Root, Child?>,
  through presented: KeyPath<Root, Presented?>,
  storage: WritableKeyPath<Root, PresentationState<Presented>>
) -> Any? {
  typealias Storage = StatePath<Root, PresentationState<Presented>>
  guard let casePath = Presented._$casePath(of: keyPath, through: presented),
    let offset = Storage.storedOffset(of: storage)
  else { return nil }
  let access = CaseAccess(casePath)
  return ChildReader<Root, Child>(
    read: { root in
      withUnsafePointer(to: root) {
        Storage.child(at: offset, in: $0).pointee.presented.flatMap { access.extract(from: $0) }
      }
    },
    // The case's value is copied out of the box, which is read where it is.
    visit: { root, body in
      let presentation = Storage.child(at: offset, in: root)
      guard
        let child = PresentationState.withPresentedBox(
          at: presentation, { access.extract(from: $0.value) }) ?? nil
      else { return false }
      withUnsafePointer(to: child) { body(UnsafeRawPointer($0)) }
      return true
    }
  )
}

/// A presented property whose state is not an enum reducer's has no cases to read.
@inlinable
public func _presentedCaseReader<Root, Presented, Child>(
  _ keyPath: KeyPath<Root, Child?>,
  through presented: KeyPath<Root, Presented?>,
  storage: WritableKeyPath<Root, PresentationState<Presented>>
) -> Any? {
  nil
}

extension PresentationState {
  /// The stored presentation state that `Root` names behind `keyPath` (its `$name` or `name`),
  /// when `Root` is ``_PresentationStorage``.
  @inlinable
  static func storage<Root>(
    behind keyPath: AnyKeyPath, in _: Root.Type
  ) -> WritableKeyPath<Root, Self>? {
    (Root.self as? any _PresentationStorage.Type)?._$presentationStorage(keyPath)
      as? WritableKeyPath<Root, Self>
  }
}

/// Optional child state that a parent presents (a sheet, an alert, a drill-down):
/// `@PresentationState var destination: Destination.State?`, integrated with
/// `.ifLet(\.$destination, action: \.destination) { Destination() }`.
///
/// The child is held in a box with copy-on-write value semantics, as in TCA: a feature can
/// present itself (its state holds a destination that holds its own state), and copying a
/// parent's state does not copy every presented level below it.
@propertyWrapper
public struct PresentationState<State> {
  /// The presented child's state, or `nil` when nothing is presented. Assigning it counts as the
  /// parent presenting (or replacing, or clearing) the child.
  public var wrappedValue: State? {
    get { presented }
    set {
      presented = newValue
      assignments &+= 1
    }
  }

  /// The presented child; `nil` when nothing is presented.
  @usableFromInline var box: _PresentedBox<State>?

  /// The state itself, changed without counting as an assignment.
  @inlinable var presented: State? {
    get { box?.value }
    set {
      guard let newValue else {
        box = nil
        return
      }
      if box != nil, isKnownUniquelyReferenced(&box!) {
        box!.value = newValue
      } else {
        box = _PresentedBox(newValue)
      }
    }
  }

  /// Whether a child is presented, without copying it out.
  @inlinable var isPresented: Bool { box != nil }

  // The box is neither retained nor its child copied: a store reading its child after an action
  // is handed a pointer into the state whoever tells it holds for the whole call, and a box that
  // state holds is neither freed nor changed meanwhile (an action sent meanwhile changes a copy
  // of it, as it is shared). A copy would retain all the child holds.
  /// Calls `body` with the box of the child presented in the state at `presentation`, where it
  /// is; `nil` when nothing is presented.
  @inlinable
  static func withPresentedBox<T>(
    at presentation: UnsafeMutablePointer<Self>, _ body: (_PresentedBox<State>) -> T
  ) -> T? {
    guard presentation.pointee.isPresented else { return nil }
    return Unmanaged.passUnretained(presentation.pointee.box!)._withUnsafeGuaranteedRef(body)
  }

  /// Changes the presented child in place (copying it first if another value shares it), as the
  /// child's reducer does; `nil` when nothing is presented.
  @inlinable
  mutating func modifyPresented<T>(_ body: (inout State) -> T) -> T? {
    guard box != nil else { return nil }
    if !isKnownUniquelyReferenced(&box!) { box = _PresentedBox(box!.value) }
    return body(&box!.value)
  }

  /// How often the parent assigned the state. While it stays the same across an action, the
  /// child is the one it was, and the reducer can skip working out the child's identity, which
  /// takes reflection: most actions, such as each keystroke in a sheet, leave it alone.
  @usableFromInline var assignments: UInt = 0

  /// The scope of the effects the presented child started, and the assignments the operator
  /// last saw: when a reducer outside the operator removes or replaces that child, the next
  /// action through the operator finds it gone and cancels them, as TCA does.
  @usableFromInline var work: _PresentationWork?

  /// Wraps optional child state.
  public init(wrappedValue: State?) {
    self.presented = wrappedValue
  }

  /// The wrapper itself, for `ifLet(\.$destination, …)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when the presented states are; how they came to be is not part of the value.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.box === rhs.box { return true }
    return lhs.presented == rhs.presented
  }
}

extension PresentationState: Hashable where State: Hashable {
  /// Hashes the presented state.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(presented)
  }
}
// The box is only ever changed when uniquely referenced, so sharing it between copies is safe.
extension PresentationState: @unchecked Sendable where State: Sendable {}

/// The effects a presented child started, as its presentation state remembers them. An
/// immutable object, so the check on every action is a comparison of one pointer with `nil`.
public final class _PresentationWork {
  @usableFromInline let scope: EffectScope
  @usableFromInline let assignments: UInt

  @usableFromInline
  init(scope: EffectScope, assignments: UInt) {
    self.scope = scope
    self.assignments = assignments
  }
}

/// The storage of a presented child.
public final class _PresentedBox<State> {
  // Changed only through a uniquely referenced box, inside one access of the state that holds
  // it, so the dynamic exclusivity check a class property pays on every access guards nothing.
  @usableFromInline @exclusivity(unchecked) var value: State

  @usableFromInline
  init(_ value: State) {
    self.value = value
  }
}

extension PresentationState: Codable where State: Codable {
  /// Encodes the optional child state.
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }

  /// Decodes the optional child state.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try State?(from: decoder))
  }
}

extension PresentationState: CustomDumpReflectable {
  /// Dumps as the child state itself, so diffs read like the feature's fields.
  public var customDumpMirror: Mirror {
    Mirror(reflecting: wrappedValue as Any)
  }
}

/// The action of a presented child: an action of the child itself, or its dismissal.
@CasePathable
public enum PresentationAction<Action>: CasePathable {
  /// The child was dismissed (swiped away, closed, or it called `dismiss()`).
  case dismiss
  /// An action of the presented child.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
/// Recordable when the child's action is: `{"dismiss": {}}`, `{"presented": {"_0": …}}`.
extension PresentationAction: Codable where Action: Codable {}
extension PresentationAction: Sendable where Action: Sendable {}

extension Case {
  /// Reaches through `.presented` so tests can write `\.destination.alert.confirm`.
  public subscript<Action: CasePathable, AppendedAction>(
    dynamicMember keyPath: KeyPath<Action.AllCasePaths, AnyCasePath<Action, AppendedAction>>
  ) -> Case<AppendedAction>
  where Value == PresentationAction<Action> {
    self[dynamicMember: \.presented][dynamicMember: keyPath]
  }
}

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

/// What a presentation reducer asks of its presented state: whether it is an alert or dialog,
/// and which child it is. An enum reducer's state (``CaseReducerState``, what `@Reducer enum`
/// generates) answers both for its current case with a `switch`. Any other state is asked by
/// reflection, which costs about 19,000 instructions for the first question and 23,000 for the
/// second; a state type that is not an enum can never hold an alert in a case, so once one has
/// been seen this reducer stops asking that. It also notes whether the child ever started work
/// that a dismissal must end. Kept per reducer instance, on the main actor where its store runs.
@usableFromInline
final class PresentedCases<State> {
  // Read on every presented action; set once, on the store's actor, by the same reducer: the
  // dynamic exclusivity check of each read (about 80 instructions) guards nothing.
  @usableFromInline @exclusivity(unchecked) var isPlainType = false
  /// Set the first time the child returns an effect that can outlive its action; until then a
  /// child that goes away leaves nothing to cancel. Never cleared, and set from the start when
  /// not made for a store's tree, as ``ChildIdentity``'s is.
  @usableFromInline @exclusivity(unchecked) var childHasWork = !ReducerTree.makesKeptReducers
  /// The scope made last for a presented child's effects, kept for that child's next effects.
  @usableFromInline @exclusivity(unchecked) var lastScope:
    (identity: PresentationIdentity, scope: EffectScope)?
  /// The state's own answers, when it is an enum reducer's state. Found once, here: a cast of
  /// each presented state to the protocol would look its conformance up on every action.
  @usableFromInline let caseEphemerality: ((State) -> Bool)?
  @usableFromInline let caseIdentity: ((State) -> _PresentationIdentity)?

  @usableFromInline
  init() {
    // An enum state that is itself `Identifiable` has an id to add, which reflection finds.
    if let enumState = State.self as? any CaseReducerState.Type,
      !(State.self is any Identifiable.Type)
    {
      let answers = Self.answers(of: enumState)
      caseEphemerality = answers.ephemerality as? (State) -> Bool
      caseIdentity = answers.identity as? (State) -> _PresentationIdentity
    } else {
      caseEphemerality = nil
      caseIdentity = nil
    }
  }

  /// The state's generated answers, as functions of the state (`State` is `Opened` here).
  private static func answers<Opened: CaseReducerState>(
    of _: Opened.Type
  ) -> (ephemerality: Any, identity: Any) {
    (
      { (state: Opened) in state._$isEphemeral } as (Opened) -> Bool,
      { (state: Opened) in state._$presentationIdentity } as (Opened) -> _PresentationIdentity
    )
  }

  @inlinable
  func isEphemeral(_ state: State) -> Bool {
    if let caseEphemerality { return caseEphemerality(state) }
    if isPlainType { return false }
    return reflectEphemerality(state)
  }

  @usableFromInline
  func reflectEphemerality(_ state: State) -> Bool {
    guard let answer = ephemerality(of: state) else {
      isPlainType = true
      return false
    }
    return answer
  }

  /// What makes a presented child "the same" child: its type, the enum case it is in (for
  /// destination enums) and its id when it is `Identifiable`. A different identity is a new
  /// presentation, whose predecessor's effects must not outlive it.
  @usableFromInline
  func identity(of state: State) -> PresentationIdentity {
    let parts = caseIdentity?(state) ?? structIdentity?(state) ?? firstReflectedIdentity(of: state)
    return PresentationIdentity(type: ObjectIdentifier(type(of: state)), parts: parts)
  }

  /// The identity of a struct state, found without reflection once a value has shown the state
  /// is one: its id, or nothing. Reflection cost about 5,800 instructions each time a presented
  /// child returned an effect. Set once, on the store's actor, as `isPlainType` is.
  @exclusivity(unchecked) private var structIdentity: ((State) -> _PresentationIdentity)?

  private func firstReflectedIdentity(of state: State) -> _PresentationIdentity {
    if Mirror(reflecting: state).displayStyle == .struct {
      structIdentity =
        (State.self as? any Identifiable.Type).map { Self.idReader($0) } ?? { _ in .none }
    }
    return reflectedIdentity(of: state)
  }

  /// Reads the id of a state of type `Opened`, which is `State`.
  private static func idReader<Opened: Identifiable>(
    _: Opened.Type
  ) -> (State) -> _PresentationIdentity {
    { state in .id((state as! Opened).id) }
  }
}

/// A presented child's identity: its type, then what ``PresentedCases`` found in it.
@usableFromInline
struct PresentationIdentity: Hashable {
  let type: ObjectIdentifier
  let parts: _PresentationIdentity
}

/// What tells a presented child from another of its type: the cases of the enum reducers'
/// states it is in, and the ids of the `Identifiable` values among them. `@Reducer enum` makes
/// its state's from the current case.
///
/// The case names are one string, and each id is kept in its own type: comparing two
/// type-erased names cost about 2,000 instructions, and making and comparing two identities
/// with an `AnyHashable` id about 4,800, which an enum child with work running paid on every
/// action that passed its `ifLet`.
public struct _PresentationIdentity: Hashable {
  /// The case names, outermost first, joined by dots (a name is an identifier, with none).
  @usableFromInline let cases: String
  /// The ids, outermost first.
  @usableFromInline let ids: (any PresentationIDs)?

  @inlinable
  init(cases: String, ids: (any PresentationIDs)?) {
    self.cases = cases
    self.ids = ids
  }

  /// Nothing tells such a value from another of its type.
  @inlinable
  public static var none: Self { Self(cases: "", ids: nil) }

  /// The case named `name`.
  @inlinable
  public static func `case`(_ name: String) -> Self {
    Self(cases: name, ids: nil)
  }

  /// A value's id.
  @inlinable
  public static func id(_ id: some Hashable) -> Self {
    Self(cases: "", ids: PresentationID(id, then: nil))
  }

  /// The outer value's identity, then the inner one's.
  @inlinable
  public static func + (outer: Self, inner: Self) -> Self {
    Self(
      cases: inner.cases.isEmpty
        ? outer.cases : outer.cases.isEmpty ? inner.cases : outer.cases + "." + inner.cases,
      ids: outer.ids == nil ? inner.ids : outer.ids!.followed(by: inner.ids))
  }

  /// The same cases, and the same ids in the same order, each equal as its own type.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.cases == rhs.cases && sameIDs(lhs.ids, rhs.ids)
  }

  /// Hashes the cases and each id with its type.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cases)
    ids?.hash(into: &hasher)
  }
}

/// Ids of a presentation identity, outermost first: one, kept as its own type, and the rest.
@usableFromInline
protocol PresentationIDs: AnyObject {
  /// Whether `other` holds the same ids, each of the same type and equal as that type.
  func isEqual(to other: any PresentationIDs) -> Bool
  func hash(into hasher: inout Hasher)
  /// These ids, then `tail`'s.
  func followed(by tail: (any PresentationIDs)?) -> any PresentationIDs
}

/// Whether both hold the same ids: none, the very same nodes, or equal ones.
private func sameIDs(_ lhs: (any PresentationIDs)?, _ rhs: (any PresentationIDs)?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): true
  case (let lhs?, let rhs?): lhs === rhs || lhs.isEqual(to: rhs)
  default: false
  }
}

/// An id of type `ID`, then the ids after it.
@usableFromInline
final class PresentationID<ID: Hashable>: PresentationIDs {
  @usableFromInline let id: ID
  @usableFromInline let next: (any PresentationIDs)?

  @inlinable
  init(_ id: ID, then next: (any PresentationIDs)?) {
    self.id = id
    self.next = next
  }

  @usableFromInline
  func isEqual(to other: any PresentationIDs) -> Bool {
    // A class cast to the dynamic `Self`, whose metadata this instance carries: naming
    // `PresentationID<ID>` would look its generic metadata up, and a cast from the existential
    // would first look for the value inside it.
    guard let other = (other as AnyObject) as? Self, other.id == id else { return false }
    return sameIDs(next, other.next)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(ID.self))
    hasher.combine(id)
    next?.hash(into: &hasher)
  }

  @usableFromInline
  func followed(by tail: (any PresentationIDs)?) -> any PresentationIDs {
    PresentationID(id, then: next.map { $0.followed(by: tail) } ?? tail)
  }
}

extension CaseReducerState {
  /// Asks by reflection, for an enum reducer written without `@Reducer`.
  public var _$isEphemeral: Bool { ephemerality(of: self) ?? false }

  /// Found by reflection, for an enum reducer written without `@Reducer`.
  public var _$presentationIdentity: _PresentationIdentity { reflectedIdentity(of: self) }
}

/// Whether `value`, the payload of an enum reducer's case, is an alert or dialog: `@Reducer enum`
/// asks this of its current case, and the overload is chosen where the payload's type is known,
/// so the answer costs nothing at run time. Not one, for a type that is neither.
@inlinable
public func _isEphemeral<Value>(_: Value) -> Bool { false }

/// An alert or dialog is one.
@inlinable
public func _isEphemeral<Value: _EphemeralState>(_: Value) -> Bool { true }

/// A nested enum reducer's state answers for its own case.
@inlinable
public func _isEphemeral<Value: CaseReducerState>(_ value: Value) -> Bool { value._$isEphemeral }

/// What tells `value`, the payload of an enum reducer's case, from another in the same case:
/// nothing, for a value that is neither `Identifiable` nor an enum reducer's state. As with
/// `_isEphemeral`, `@Reducer enum` asks, and the payload's type picks the overload.
@inlinable
public func _presentationIdentity<Value>(of _: Value) -> _PresentationIdentity { .none }

/// Its id.
@inlinable
public func _presentationIdentity<Value: Identifiable>(of value: Value) -> _PresentationIdentity {
  .id(value.id)
}

/// The case it is in, and what tells its own payload apart.
@inlinable
public func _presentationIdentity<Value: CaseReducerState>(
  of value: Value
) -> _PresentationIdentity {
  value._$presentationIdentity
}

/// Its id, then its case and what tells its payload apart.
@inlinable
public func _presentationIdentity<Value: CaseReducerState & Identifiable>(
  of value: Value
) -> _PresentationIdentity {
  .id(value.id) + value._$presentationIdentity
}

/// Whether presented state is an alert or dialog, directly or as the case of a destination enum;
/// `nil` when it can never be one: it is neither, and not an enum that could hold one in a case.
func ephemerality(of state: Any) -> Bool? {
  if state is any _EphemeralState { return true }
  let mirror = Mirror(reflecting: state)
  guard mirror.displayStyle == .enum else { return nil }
  guard let child = mirror.children.first else { return false }
  return ephemerality(of: child.value) ?? false
}

/// A presented child's identity without its type, found by reflection: its id when it is
/// `Identifiable`, then, while it is an enum with a payload, the case and the payload's.
func reflectedIdentity(of state: Any) -> _PresentationIdentity {
  var parts = _PresentationIdentity.none
  var value = state
  while true {
    if let identifiable = value as? any Identifiable {
      parts = parts + _presentationIdentity(of: identifiable)
    }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first else { break }
    parts = parts + .case(child.label ?? "")
    value = child.value
  }
  return parts
}

/// Whether a presented action is for the alert or dialog the presented state holds: any action,
/// when the state is the alert itself; for a destination enum, an action in the same case as
/// the state's, followed into nested destinations. An alert stays while its sibling cases'
/// actions arrive, as TCA's does.
@usableFromInline
func _isAction(_ action: Any, ofEphemeralIn state: Any) -> Bool {
  if state is any _EphemeralState { return true }
  let stateCase = Mirror(reflecting: state)
  let actionCase = Mirror(reflecting: action)
  guard stateCase.displayStyle == .enum, actionCase.displayStyle == .enum,
    let stateChild = stateCase.children.first, let actionChild = actionCase.children.first,
    stateChild.label == actionChild.label
  else { return false }
  return _isAction(actionChild.value, ofEphemeralIn: stateChild.value)
}
