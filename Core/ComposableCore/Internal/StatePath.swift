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

  /// Reads the child state without copying it out of the parent when it is stored.
  @inlinable
  func read<T>(_ root: inout Root, _ body: (Value) -> T) -> T {
    guard offset >= 0 else { return body(root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { pointer in
      body((UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
    }
  }

  /// Edits the child state in place.
  @inlinable
  func modify<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T {
    guard offset >= 0 else { return body(&root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { pointer in
      body(&(UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self).pointee)
    }
  }
}
