/// Where an operator's child state lives in its parent's: a writable key path, and, when the key
/// path is stored properties only, the child's offset in the parent.
///
/// Operators read and edit child state on every action. Through a key path that costs hundreds of
/// instructions (the standard library looks up type metadata for each projection); at a known
/// offset it is a pointer access. Computed properties keep going through the key path, so their
/// getters and setters run exactly as written, except the tracked properties of observable state,
/// which name their storage (``_TrackedStorage``): through a key path, the getter copies the child
/// out and the setter writes it back, so an action that changes a collection inside the child
/// copied the whole collection. Those are changed at their storage, and their observers told
/// exactly when the accessors would tell them.
@usableFromInline
struct StatePath<Root, Value> {
  /// Where the child is: its offset when the key path is stored properties only. Otherwise
  /// negative: `-1` to go through the key path, `-2 - offset` for a tracked property stored at
  /// `offset`. One word, not an enum or an optional: operators carry this value on every action,
  /// and a plain stored child, the common case, is told apart by its sign (a test against a
  /// larger constant cost about 8 instructions a level).
  @usableFromInline let offset: Int
  @usableFromInline let route: StateRoute<Root, Value>

  /// The path to the child at `keyPath`. For a collection whose elements `forEach` changes in
  /// place, `elements` is their type: when it is observable state, the element's own readers
  /// hear of such a change, and the collection's identity need not be taken (`modifyElement`).
  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, Value>, elements: Any.Type? = nil) {
    let elementsAreObservable = elements is any ObservableState.Type
    if let offset = MemoryLayout<Root>.offset(of: keyPath) {
      self.offset = offset
      self.route = StateRoute(keyPath: keyPath)
    } else if let (offset, route) = StateRoute.trackedStorage(
      behind: keyPath, elementsAreObservable: elementsAreObservable)
    {
      self.offset = -2 - offset
      self.route = route
    } else {
      self.offset = -1
      self.route = StateRoute(keyPath: keyPath)
    }
  }

  /// Where the child at a read-only `keyPath` is stored in its parent, when the path is stored
  /// properties only or a tracked property of observable state; `nil` otherwise.
  @usableFromInline
  static func storedOffset(of keyPath: KeyPath<Root, Value>) -> Int? {
    if let offset = MemoryLayout<Root>.offset(of: keyPath) { return offset }
    guard let writable = keyPath as? WritableKeyPath<Root, Value> else { return nil }
    return StateRoute.trackedStorage(behind: writable)?.offset
  }

  /// The key path the operator was given.
  @inlinable var keyPath: WritableKeyPath<Root, Value> { route.keyPath }

  /// The key path as the place that scopes the child's effects (``EffectScope``), made once.
  @inlinable var effectLocation: AnyHashable { route.effectScope.location }

  /// The child inside the parent at `root`, for a stored path; valid as long as `root` is.
  @inlinable
  func child(in root: UnsafeRawPointer) -> UnsafeMutablePointer<Value> {
    Self.child(at: offset, in: root)
  }

  /// The child at `offset` in the parent at `root`. For a function that runs after every action
  /// and needs only the offset: capturing the whole path made it retain the key path each call.
  @inlinable
  static func child(at offset: Int, in root: UnsafeRawPointer) -> UnsafeMutablePointer<Value> {
    UnsafeMutableRawPointer(mutating: root + offset).assumingMemoryBound(to: Value.self)
  }

  /// Lends `body` the child stored at `offset` in `root`, for reading only: `inout` hands it over
  /// where it is, where a value read through a pointer was copied in code that runs
  /// unspecialised. How a store's reader reaches its child after every action.
  @inlinable
  static func lend<T>(at offset: Int, in root: Root, _ body: (inout Value) -> T) -> T {
    withUnsafePointer(to: root) { body(&child(at: offset, in: $0).pointee) }
  }

  /// Reads the child state without copying it out of the parent when it is stored. A reducer's
  /// read is not an observer's: a tracked property's read at its storage is not reported.
  @inlinable
  func read<T>(_ root: inout Root, _ body: (Value) -> T) -> T {
    guard offset < 0 else {
      return withUnsafeMutablePointer(to: &root) { body(child(in: $0).pointee) }
    }
    guard offset < -1 else { return body(root[keyPath: keyPath]) }
    let storage = -2 - offset
    return withUnsafeMutablePointer(to: &root) { body(Self.child(at: storage, in: $0).pointee) }
  }

  /// Edits the child state in place. A tracked property's observers are told after the change
  /// when its `_modify` accessor would tell them; the two calls that decide it are out of line,
  /// as inlined they made every operator's frame larger on the plain path.
  @inlinable
  func modify<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T {
    guard offset < 0 else {
      return withUnsafeMutablePointer(to: &root) { body(&child(in: $0).pointee) }
    }
    guard offset < -1 else { return body(&root[keyPath: keyPath]) }
    let storage = -2 - offset
    return withUnsafeMutablePointer(to: &root) { root in
      let before = route.identity(at: storage, in: root)
      let result = body(&Self.child(at: storage, in: root).pointee)
      route.announceChange(from: before, at: storage, in: root)
      return result
    }
  }

  /// Edits one element of a collection child in place, which keeps the collection's ids (an
  /// identified array and a stack check it). When the elements are observable state, a tracked
  /// collection's identity is its ids, so its accessors would tell its observers nothing: its
  /// identity is not taken. The element's own readers hear of the change from the element.
  @inlinable
  func modifyElement<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T {
    guard offset < -1, route.elementsAreObservable else { return modify(&root, body) }
    let storage = -2 - offset
    return withUnsafeMutablePointer(to: &root) { body(&Self.child(at: storage, in: $0).pointee) }
  }
}

/// What a ``StatePath`` needs besides the child's offset: the key path, and for a tracked
/// property of observable state how its observers are told. A class, so that an operator carries
/// one word for all of it.
@usableFromInline
final class StateRoute<Root, Value> {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  /// The scope of the child's effects, `keyPath` type-erased once: erasing a key path to
  /// `AnyHashable` looks for its hashable superclass, about 2,000 instructions, which each child
  /// effect paid to be scoped.
  @usableFromInline let effectScope: EffectScope
  /// The identity a tracked property's accessors compare before and after a change.
  @usableFromInline let identity: (@Sendable (UnsafePointer<Value>) -> _StateIdentity)?
  /// Tells a tracked property's observers that it changed.
  @usableFromInline let announce: (@Sendable (inout Root) -> Void)?
  /// Whether the tracked property is a collection of observable states, whose identity is their
  /// ids.
  @usableFromInline let elementsAreObservable: Bool

  init(
    keyPath: WritableKeyPath<Root, Value>,
    identity: (@Sendable (UnsafePointer<Value>) -> _StateIdentity)? = nil,
    announce: (@Sendable (inout Root) -> Void)? = nil,
    elementsAreObservable: Bool = false
  ) {
    self.keyPath = keyPath
    self.effectScope = EffectScope(location: AnyHashable(keyPath))
    self.identity = identity
    self.announce = announce
    self.elementsAreObservable = elementsAreObservable
  }

  /// The storage behind `keyPath` when it names a tracked property of `Root`: its offset, and
  /// the route that tells its observers.
  static func trackedStorage(
    behind keyPath: WritableKeyPath<Root, Value>,
    elementsAreObservable: Bool = false
  ) -> (offset: Int, route: StateRoute)? {
    guard let property = (Root.self as? any _TrackedStorage.Type)?._$trackedProperty(keyPath),
      let storage = property.storage as? WritableKeyPath<Root, Value>,
      let offset = MemoryLayout<Root>.offset(of: storage),
      let identity = property.identity as? @Sendable (UnsafePointer<Value>) -> _StateIdentity,
      let announce = property.announce as? @Sendable (inout Root) -> Void
    else { return nil }
    return (
      offset,
      StateRoute(
        keyPath: keyPath, identity: identity, announce: announce,
        elementsAreObservable: elementsAreObservable)
    )
  }

  /// The identity of the tracked property stored at `offset`, before a change.
  @inlinable @inline(never)
  func identity(at offset: Int, in root: UnsafeMutablePointer<Root>) -> _StateIdentity {
    identity!(StatePath<Root, Value>.child(at: offset, in: root))
  }

  /// After a change of the tracked property stored at `offset`, tells its observers when its
  /// `_modify` accessor would: its identity changed (an observable child that replaced itself,
  /// a collection whose ids changed), or it has none.
  @inlinable @inline(never)
  func announceChange(
    from before: _StateIdentity, at offset: Int, in root: UnsafeMutablePointer<Root>
  ) {
    let after = identity!(StatePath<Root, Value>.child(at: offset, in: root))
    if before._changed(to: after) { announce!(&root.pointee) }
  }
}
