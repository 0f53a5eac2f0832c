/// What tells an optional child (`ifLet`) or an enum case's child (`ifCaseLet`) from another of
/// the same type put in its place, as TCA tells them: its id when it is `Identifiable`, and its
/// case when it is an enum reducer's state. A replacement with another identity is a new child,
/// whose predecessor's effects end, as they do when the child goes away.
///
/// Asked only once the child has started work that can outlive its action (``childHasWork``):
/// before that, a replacement leaves nothing behind, and most children never start such work.
/// Kept per operator instance, which is per store, on the store's actor.
@usableFromInline
final class ChildIdentity<State> {
  /// Set the first time the child returns an effect that can outlive its action, and never
  /// cleared: were it cleared when the effects are cancelled, an operator value that two stores
  /// share (one built outside a store's reducer closure) would let one store's cancellation hide
  /// the other's running work. Set from the start in an operator not made for a store's tree
  /// (``ReducerTree``): made for one call, it cannot remember the work its child started in an
  /// earlier one. Read on every action that passes the operator: the dynamic exclusivity check
  /// of each read would cost more than the read.
  @usableFromInline @exclusivity(unchecked) var childHasWork =
    !ReducerTree.makesKeptReducers || State.self is any _EphemeralState.Type

  @usableFromInline
  enum Source {
    /// Not `Identifiable` and not an enum: any value of the type is the same child, unless
    /// ``idWatch`` compares its id.
    case typeOnly
    /// Its case, and the id of an `Identifiable` enum or payload, as a presentation tells them.
    case cases(PresentedCases<State>)
    /// Not known until a value is seen, for a type that is neither an enum reducer's state nor
    /// `Identifiable`: a hand-written enum state has cases; any other type has only itself.
    case unknown
  }

  // The identity is kept here, not in the operator's `reduce`: an optional identity there
  // was copied and destroyed through value witnesses on every action, about 200 instructions a
  // level, though it is `nil` unless the child has work.
  @usableFromInline @exclusivity(unchecked) var source: Source
  /// The functions that keep and compare an `Identifiable` child's id, asked before `source`.
  /// A constant, not a payload of `source`: bound out of the enum's case, the two closures were
  /// copied, their contexts retained and released, on each of the two calls an action makes.
  @usableFromInline let idWatch: IDWatch<State>?
  /// The identity of the child as the parent reducer received it, for enum states.
  @usableFromInline @exclusivity(unchecked) var before: PresentationIdentity?
  /// Whether the child is an alert or dialog, which `ifLet` dismisses once it has acted. Such a
  /// child is watched across the parent from the start (``childHasWork``), so the dismissal
  /// costs other children nothing: a cast on each child action cost about 330 instructions a
  /// level, and a check of this flag about 12.
  @usableFromInline let isEphemeral = State.self is any _EphemeralState.Type

  // Inlinable, as are the operators' initializers that make it: where the child's type is known,
  // the casts below are answered when compiling, and the id is kept and compared as its own type
  // (for an `Identifiable` child with work running, the check cost about 580 instructions an
  // action through witness tables, and costs about 340).
  @inlinable
  init() {
    if State.self is any CaseReducerState.Type {
      source = .cases(PresentedCases())
      idWatch = nil
    } else if let identifiable = State.self as? any Identifiable.Type,
      let watch = Self.watch(identifiable) as? IDWatch<State>
    {
      source = .typeOnly
      idWatch = watch
    } else {
      source = .unknown
      idWatch = nil
    }
  }

  /// Keeps and compares the id of an `Identifiable` state (`State` is `Opened` here). As
  /// `AnyHashable`s, the two ids and their comparison cost about 3,900 instructions an action.
  @inlinable
  static func watch<Opened: Identifiable>(_: Opened.Type) -> Any {
    let kept = IDKeeper<Opened>()
    return IDWatch<Opened>(remember: kept.remember, isReplaced: kept.isReplaced)
  }

  /// Notes the identity of the child the parent reducer is about to receive.
  @inlinable
  func remember(_ state: State) {
    if idWatch != nil { return idWatch!.remember(state) }
    switch source {
    case .typeOnly:
      return
    case .cases(let cases):
      before = cases.identity(of: state)
    case .unknown:
      guard Mirror(reflecting: state).displayStyle == .enum else {
        source = .typeOnly
        return
      }
      let cases = PresentedCases<State>()
      source = .cases(cases)
      before = cases.identity(of: state)
    }
  }

  /// Whether `state` is another child than the one ``remember(_:)`` noted.
  @inlinable
  func isReplaced(by state: State) -> Bool {
    if idWatch != nil { return idWatch!.isReplaced(state) }
    switch source {
    case .typeOnly, .unknown:
      return false
    case .cases(let cases):
      defer { before = nil }
      return cases.identity(of: state) != before
    }
  }
}

/// The two halves of watching an id, as functions of the state.
@usableFromInline
struct IDWatch<State> {
  @usableFromInline let remember: (State) -> Void
  @usableFromInline let isReplaced: (State) -> Bool

  @inlinable
  init(remember: @escaping (State) -> Void, isReplaced: @escaping (State) -> Bool) {
    self.remember = remember
    self.isReplaced = isReplaced
  }
}

/// The id noted before the parent runs, in its own type. It is kept in storage of its own, not
/// in an optional: where this runs unspecialised (a child whose type is known only at run time),
/// each use of an optional of the id looked up the optional's type metadata, about 500
/// instructions an action.
@usableFromInline
final class IDKeeper<Value: Identifiable> {
  @usableFromInline let id = UnsafeMutablePointer<Value.ID>.allocate(capacity: 1)
  // Used only between `remember` and `isReplaced` of one action, on the store's actor.
  @usableFromInline @exclusivity(unchecked) var isKept = false

  @inlinable
  init() {}

  deinit {
    if isKept { id.deinitialize(count: 1) }
    id.deallocate()
  }

  @inlinable
  func remember(_ value: Value) {
    if isKept { id.deinitialize(count: 1) }
    id.initialize(to: value.id)
    isKept = true
  }

  @inlinable
  func isReplaced(_ value: Value) -> Bool {
    guard isKept else { return false }
    isKept = false
    return id.move() != value.id
  }
}
