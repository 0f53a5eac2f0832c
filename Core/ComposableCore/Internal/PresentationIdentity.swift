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
