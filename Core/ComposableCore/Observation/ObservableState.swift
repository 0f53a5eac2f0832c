import IdentifiedCollections
import Observation
import OrderedCollections

/// State whose properties are observed one by one: what `@ObservableState` makes of a struct or
/// an enum. A store of such state tells an observer exactly which of the fields it read changed.
public protocol ObservableState: Observable {
  /// The identity of this value: the same while it is mutated in place, new when it is replaced
  /// by another value (or, for an enum, when it moves to another case).
  var _$id: ObservableStateID { get }

  /// Gives this value a new identity before it is changed in place, so that a copy taken
  /// earlier no longer counts as the same value: writing that copy back is then reported.
  mutating func _$willModify()
}

extension ObservableState {
  /// Keeps the identity: the default for state that conforms by hand.
  @inlinable public mutating func _$willModify() {}
}

/// Does nothing: a value that is not observable state has no identity to renew.
@_disfavoredOverload
@inlinable
public func _$willModify<T>(_ value: inout T) {}

/// Gives observable state a new identity before it is changed in place.
@inlinable
public func _$willModify<T: ObservableState>(_ value: inout T) {
  value._$willModify()
}

/// The identity of an observable state value. Copies of a value share it; a newly made value has
/// a new one.
public struct ObservableStateID: Hashable, Sendable {
  // A fresh object per value: identities compare by reference, so making one is one allocation,
  // with no shared counter or random numbers.
  private final class Token: Sendable {}

  private let token: any AnyObject & Sendable
  /// The case indices an enum state's identity is tagged with, outermost first.
  private var tags: [Int] = []

  /// A new identity, unequal to every other.
  public init() {
    token = Token()
  }

  /// The identity of `object`, which the caller keeps for one value's life.
  @usableFromInline
  init(of object: any AnyObject & Sendable) {
    token = object
  }

  /// The identity of every enum case without a payload, told apart by its tag: such a case has
  /// nothing else that could change.
  public static let _$caseWithoutPayload = Self()

  /// This identity tagged with an enum case's index, so that the same payload in two different
  /// cases has two different identities.
  public func _$tag(_ tag: Int) -> Self {
    var copy = self
    copy.tags.insert(tag, at: 0)
    return copy
  }

  /// Whether both are the same identity.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.token === rhs.token && lhs.tags == rhs.tags
  }

  /// Hashes the identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(token))
    hasher.combine(tags)
  }
}

/// The identity of an enum case's observable payload.
@inlinable
public func _$stateID<T: ObservableState>(of state: T) -> ObservableStateID {
  state._$id
}

/// The identity of a payload that is not observable state: a new one each time, so any change
/// to the case is reported.
@_disfavoredOverload
@inlinable
public func _$stateID<T>(of state: T) -> ObservableStateID {
  ObservableStateID()
}

/// Observable state that names the storage behind its tracked properties: what
/// `@ObservableState` makes of a struct. A reducer operator (`Scope`, `ifLet`, `forEach`) changes
/// a child in place there, where a key path through the observed accessors would copy the child
/// out and back on every action, and a collection in it with it.
public protocol _TrackedStorage: ObservableState {
  /// The tracked property at `keyPath` (`\.child`), or `nil` for any other key path.
  static func _$trackedProperty(_ keyPath: AnyKeyPath) -> _TrackedProperty?
}

/// A tracked property of observable state, as a reducer operator reaches it: its storage, the
/// identity its accessors compare before and after a change, and how its observers are told.
public struct _TrackedProperty {
  @usableFromInline let storage: AnyKeyPath
  // Typed where the operator asking knows the types: `@Sendable (UnsafePointer<Value>) ->
  // _StateIdentity` and `@Sendable (inout Root) -> Void`.
  @usableFromInline let identity: Any
  @usableFromInline let announce: Any

  /// Describes a property stored at `storage`. `identity` reads the value's identity where it is
  /// (a copy of the value would retain everything it holds); `announce` tells its observers it
  /// changed.
  public init<Root, Value>(
    storage: WritableKeyPath<Root, Value>,
    identity: @escaping @Sendable (UnsafePointer<Value>) -> _StateIdentity,
    announce: @escaping @Sendable (inout Root) -> Void
  ) {
    self.storage = storage
    self.identity = identity
    self.announce = announce
  }
}

/// What `@ObservableState` stores in a struct: the value's identity and the registrar its
/// properties report reads and changes to. Every registrar equals every other, so it never
/// makes two states unequal.
public struct ObservationStateRegistrar: Hashable, Sendable {
  // One reference, which is also the state's identity: every copy of the state retains only it.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let registrar: ObservationRegistrar
    @usableFromInline init(registrar: ObservationRegistrar = ObservationRegistrar()) {
      self.registrar = registrar
    }
  }

  @usableFromInline
  var storage = Storage()

  @inlinable
  var registrar: ObservationRegistrar { storage.registrar }

  /// The identity of the state holding this registrar.
  @inlinable
  public var id: ObservableStateID { ObservableStateID(of: storage) }

  /// A registrar with a new identity.
  public init() {}

  /// Takes a new identity and keeps the observers: copies of an `ObservationRegistrar` share
  /// them.
  public mutating func _$willModify() {
    storage = Storage(registrar: storage.registrar)
  }

  /// Records that `keyPath` of `subject` was read, for the observation tracking in progress.
  @inlinable
  public func access<Subject: Observable, Member>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>
  ) {
    registrar.access(subject, keyPath: keyPath)
  }

  /// Sets a stored property, telling observers of `keyPath` unless the new value has the same
  /// identity as the old one: a child state mutated in place notifies only its own readers.
  @inlinable
  public func mutate<Subject: Observable, Member, Identity: _StateIdentitySnapshot>(
    _ subject: inout Subject,
    keyPath: KeyPath<Subject, Member>,
    from oldIdentity: Identity,
    to newIdentity: Identity,
    _ set: (inout Subject) -> Void
  ) {
    guard oldIdentity._changed(to: newIdentity) else { return set(&subject) }
    announce(&subject, keyPath: keyPath, during: set)
  }

  /// Sets a stored property, telling observers of `keyPath` only when `changed`: the accessors
  /// of a tracked property pass whether both its identity and its value changed.
  @inlinable
  public func mutate<Subject: Observable, Member>(
    _ subject: inout Subject,
    keyPath: KeyPath<Subject, Member>,
    changed: Bool,
    _ set: (inout Subject) -> Void
  ) {
    guard changed else { return set(&subject) }
    announce(&subject, keyPath: keyPath, during: set)
  }

  /// Tells observers of `keyPath` that the property changed in place, unless its identity
  /// stayed the same.
  @inlinable
  public func didModify<Subject: Observable, Member, Identity: _StateIdentitySnapshot>(
    _ subject: inout Subject,
    keyPath: KeyPath<Subject, Member>,
    from oldIdentity: Identity,
    to newIdentity: Identity
  ) {
    guard oldIdentity._changed(to: newIdentity) else { return }
    announce(&subject, keyPath: keyPath)
  }

  // Takes the state `inout` and is never inlined, so the state reaches the registrar where it
  // lies: a concrete state passed by value from an accessor was copied twice, every field
  // retained.
  @usableFromInline @inline(never)
  func announce<Subject: Observable, Member>(
    _ subject: inout Subject, keyPath: KeyPath<Subject, Member>
  ) {
    registrar.willSet(subject, keyPath: keyPath)
    registrar.didSet(subject, keyPath: keyPath)
  }

  /// Sets the property between telling observers it will change and that it did.
  @usableFromInline @inline(never)
  func announce<Subject: Observable, Member>(
    _ subject: inout Subject, keyPath: KeyPath<Subject, Member>,
    during set: (inout Subject) -> Void
  ) {
    registrar.willSet(subject, keyPath: keyPath)
    set(&subject)
    registrar.didSet(subject, keyPath: keyPath)
  }

  /// Tells observers of `keyPath` that the property changed, once the change is made.
  @inlinable
  public func didChange<Subject: Observable, Member>(
    _ subject: inout Subject,
    keyPath: KeyPath<Subject, Member>
  ) {
    announce(&subject, keyPath: keyPath)
  }

  /// Always true: the registrar is not part of the state's value.
  public static func == (lhs: Self, rhs: Self) -> Bool { true }

  /// Adds nothing to the hash.
  public func hash(into hasher: inout Hasher) {}
}

/// What a tracked property's accessors keep of its value before a change, to tell afterwards
/// whether its readers must hear of it.
public protocol _StateIdentitySnapshot {
  /// Whether readers of the property must hear of a change from this identity to `new`.
  func _changed(to new: Self) -> Bool
  /// The identity as a reducer operator that changes the property in place compares it.
  var _erased: _StateIdentity { get }
}

/// The identity of a value that has none (numbers, strings…): every change counts. A type of its
/// own, chosen when the accessor is compiled, so that writing such a field keeps and compares
/// nothing at run time.
public struct _NoStateIdentity: _StateIdentitySnapshot {
  @inlinable init() {}

  /// Always: a value without identity cannot be shown unchanged.
  @inlinable public func _changed(to new: Self) -> Bool { true }

  /// The unknown identity.
  @inlinable public var _erased: _StateIdentity { _StateIdentity(.unknown) }
}

/// A cheap summary of a property value's identity, taken before and after a mutation to decide
/// whether its readers must hear of it. The accessors keep it for observable state and its
/// collections; a reducer operator also gets it, as `.unknown`, for a field with no identity.
public struct _StateIdentity: _StateIdentitySnapshot {
  @usableFromInline
  enum Kind {
    case unknown
    case absent
    case id(ObservableStateID)
    case ids(CollectionIDs)
  }

  /// The ids of a collection, held so that their storage cannot be changed in place while this
  /// is: if the ids taken after a change are in the same storage, they are the same ids, which
  /// an element changed in place leaves them. Only when the storage moved (the ids were written,
  /// or replaced) are the ids compared.
  @usableFromInline
  struct CollectionIDs {
    @usableFromInline let ids: any Equatable
    @usableFromInline let count: Int
    /// Where the first id is stored, as a number: compared, never read through.
    @usableFromInline let storage: UInt

    @inlinable
    init<IDs: Collection & Equatable>(_ ids: IDs) {
      self.ids = ids
      self.count = ids.count
      self.storage = ids.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
    }

    @inlinable
    func isSame(as other: Self) -> Bool {
      guard count == other.count else { return false }
      if count == 0 || (storage == other.storage && storage != 0) { return true }
      return _StateIdentity.equal(ids, other.ids)
    }
  }

  @usableFromInline
  let kind: Kind

  @usableFromInline
  init(_ kind: Kind) {
    self.kind = kind
  }

  /// Whether readers of the property must hear of a change from this identity to `new`. The
  /// unknown identity is told apart first, so that it copies neither kind.
  @inlinable
  public func _changed(to new: Self) -> Bool {
    if case .unknown = kind { return true }
    return !isSame(as: new)
  }

  /// Itself.
  @inlinable public var _erased: _StateIdentity { self }

  // One side at a time: switching over the pair copied both kinds into a tuple through their
  // value witnesses, about 350 instructions for each write of an observed property.
  @inlinable
  func isSame(as other: Self) -> Bool {
    switch kind {
    case .unknown:
      return false
    case .absent:
      guard case .absent = other.kind else { return false }
      return true
    case .id(let lhs):
      guard case .id(let rhs) = other.kind else { return false }
      return lhs == rhs
    case .ids(let lhs):
      guard case .ids(let rhs) = other.kind else { return false }
      return lhs.isSame(as: rhs)
    }
  }

  @usableFromInline
  static func equal<T: Equatable>(_ lhs: T, _ rhs: any Equatable) -> Bool {
    (rhs as? T) == lhs
  }
}

/// Whether writing `new` over `old` is a change to report: always, for a value that cannot be
/// compared.
@_disfavoredOverload
@inlinable
public func _$differs<T>(_ old: T, _ new: T) -> Bool { true }

/// Whether writing `new` over `old` is a change to report: an equal value is not.
@inlinable
public func _$differs<T: Equatable>(_ old: T, _ new: T) -> Bool { old != new }

/// Whether writing `new` over `old` is a change to report: the same object is not.
@inlinable
public func _$differs<T: AnyObject>(_ old: T, _ new: T) -> Bool { old !== new }

/// Whether writing `new` over `old` is a change to report: an equal object is not.
@inlinable
public func _$differs<T: Equatable & AnyObject>(_ old: T, _ new: T) -> Bool { old != new }

/// The identity of a value with none: every change counts.
@_disfavoredOverload
@inlinable
public func _$stateIdentity<T>(_ value: T) -> _NoStateIdentity {
  _NoStateIdentity()
}

/// The identity of observable state.
@inlinable
public func _$stateIdentity<T: ObservableState>(_ value: T) -> _StateIdentity {
  _StateIdentity(.id(value._$id))
}

/// The identity of optional observable state: `nil` and each present value differ.
@inlinable
public func _$stateIdentity<T: ObservableState>(_ value: T?) -> _StateIdentity {
  value.map { _StateIdentity(.id($0._$id)) } ?? _StateIdentity(.absent)
}

/// A collection of observable states keeps its identity while its ids stay the same.
@inlinable
public func _$stateIdentity<ID: Hashable, T: ObservableState>(
  _ value: IdentifiedArray<ID, T>
) -> _StateIdentity {
  _StateIdentity(.ids(.init(value.ids)))
}

/// Any other collection of observable states keeps its identity while its elements' identities
/// stay the same, in order.
@inlinable
public func _$stateIdentity<C: Collection>(_ value: C) -> _StateIdentity
where C.Element: ObservableState {
  _StateIdentity(.ids(.init(value.map(\._$id))))
}

/// A stack of observable states keeps its identity while its ids stay the same.
@inlinable
public func _$stateIdentity<T: ObservableState>(_ value: StackState<T>) -> _StateIdentity {
  _StateIdentity(.ids(.init(value.ids)))
}

/// Presented observable state: `nil` and each presented value differ.
@inlinable
public func _$stateIdentity<T: ObservableState>(
  _ value: PresentationState<T>
) -> _StateIdentity {
  _$stateIdentity(value.wrappedValue)
}
