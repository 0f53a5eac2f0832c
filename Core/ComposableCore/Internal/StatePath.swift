/// Where an operator's child state lives in its parent's: a writable key path, and, when the key
/// path is stored properties only, the child's offset in the parent.
///
/// Operators read and edit child state on every action. Through a key path that costs hundreds of
/// instructions (the standard library looks up type metadata for each projection); at a known
/// offset it is a pointer access. Computed properties keep going through the key path, so their
/// getters and setters run exactly as written.
@usableFromInline
struct StatePath<Root, Value> {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  /// The child's offset, or `-1` when the key path goes through a computed property. Not an
  /// `Int?`: that takes two words, and operators carry this value on every action.
  @usableFromInline let offset: Int

  @usableFromInline
  init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath) ?? -1
  }

  /// Whether the child is at a known offset: the key path is stored properties only.
  @inlinable var isStored: Bool { offset >= 0 }

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

  /// Reads the child state without copying it out of the parent when it is stored.
  @inlinable
  func read<T>(_ root: inout Root, _ body: (Value) -> T) -> T {
    guard isStored else { return body(root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { body(child(in: $0).pointee) }
  }

  /// Edits the child state in place.
  @inlinable
  func modify<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T {
    guard isStored else { return body(&root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { body(&child(in: $0).pointee) }
  }
}
