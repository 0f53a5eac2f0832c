import CustomDump

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
      Storage.lend(at: offset, in: root) { $0.presented.flatMap { access.extract(from: $0) } }
    },
    // The case's value is copied out of the box, which is read where it is.
    visit: { root, body in
      let found = Storage.lend(at: offset, in: root) {
        PresentationState.withPresentedBox(in: &$0) { access.extract(from: $0.value) } ?? nil
      }
      guard var child = found else { return false }
      body(&child)
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
  // is lent the state that whoever tells it holds for the whole call, and a box that
  // state holds is neither freed nor changed meanwhile (an action sent meanwhile changes a copy
  // of it, as it is shared). A copy would retain all the child holds.
  /// Calls `body` with the box of the child presented in `presentation`, which it only reads;
  /// `nil` when nothing is presented.
  @inlinable
  static func withPresentedBox<T>(
    in presentation: inout Self, _ body: (_PresentedBox<State>) -> T
  ) -> T? {
    guard presentation.isPresented else { return nil }
    return Unmanaged.passUnretained(presentation.box!)._withUnsafeGuaranteedRef(body)
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
