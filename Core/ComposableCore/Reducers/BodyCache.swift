import Dependencies
import Foundation
import Synchronization

/// Remembers the last `body` each reducer type built, so that a feature does not rebuild its
/// reducer tree for every action.
///
/// Building a body is far from free: every case key path literal in it (`action: \.child`) is
/// instantiated by the runtime on each evaluation (thousands of instructions, since the key path
/// goes through a generic subscript), and the operators then resolve those key paths again. A body
/// is a function of the reducer value and of the dependencies current while it is built (they are
/// captured by the `@Dependency` properties of the reducers it makes), so a body is reused only
/// when both are the same, bit for bit, as when it was built. Anything else is a rebuild.
@usableFromInline
enum BodyCache {
  /// One entry per reducer type: the latest reducer value (and its bytes), the dependencies it
  /// was built under, and its body. The entry keeps those values alive, so equal bytes always
  /// mean the same objects.
  @usableFromInline
  final class Entry<R: Reducer>: @unchecked Sendable {
    let reducer: R
    @usableFromInline let reducerBytes: [UInt8]
    @usableFromInline let dependencies: DependencyValues
    @usableFromInline let body: R.Body

    init(reducer: R, dependencies: DependencyValues, body: R.Body) {
      self.reducer = reducer
      self.reducerBytes = withUnsafeBytes(of: reducer) { Array($0) }
      self.dependencies = dependencies
      self.body = body
    }

    /// Runs the body in place: an immutable property of the entry can be borrowed for the call,
    /// where reading it out would copy the whole reducer tree's top.
    @inlinable
    func reduce(into state: inout R.Body.State, action: R.Body.Action) -> Effect<R.Body.Action>
    where R.Body: Reducer {
      body.reduce(into: &state, action: action)
    }

    @inlinable
    func matches(_ reducer: R, _ dependencies: DependencyValues) -> Bool {
      guard self.dependencies.isIdentical(to: dependencies) else { return false }
      // Most reducers are empty structs: every value of them is the same.
      guard MemoryLayout<R>.size > 0 else { return true }
      return reducerBytes.withUnsafeBytes { stored in
        withUnsafeBytes(of: reducer) { memcmp(stored.baseAddress!, $0.baseAddress!, $0.count) == 0 }
      }
    }
  }

  /// The latest entry of each reducer type, and in front of it a small table indexed by a hash
  /// of the type, which answers most lookups without hashing into the dictionary.
  private struct Table {
    /// 2⁸ slots, indexed by the top 8 bits of the hash.
    static let slotCount = 256
    var slots: [(key: ObjectIdentifier, entry: AnyObject)?] = Array(
      repeating: nil, count: Self.slotCount)
    var entries: [ObjectIdentifier: AnyObject] = [:]

    static func slot(for type: Any.Type) -> Int {
      // Fibonacci hashing of the metadata address; its low bits are alignment.
      let address = UInt(bitPattern: unsafeBitCast(type, to: Int.self))
      return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    mutating func entry(for key: ObjectIdentifier, slot: Int) -> AnyObject? {
      if let cached = slots[slot], cached.key == key { return cached.entry }
      guard let entry = entries[key] else { return nil }
      slots[slot] = (key, entry)
      return entry
    }

    mutating func store(_ entry: AnyObject, for key: ObjectIdentifier, slot: Int) {
      entries[key] = entry
      slots[slot] = (key, entry)
    }
  }

  private static let table = Mutex(Table())

  /// Runs `reducer`'s body, reused from the last time it was built when nothing it could depend
  /// on has changed.
  @inlinable
  static func reduce<R: Reducer>(
    _ reducer: R,
    into state: inout R.Body.State,
    action: R.Body.Action
  ) -> Effect<R.Body.Action> where R.Body: Reducer {
    entry(for: reducer).reduce(into: &state, action: action)
  }

  /// The entry to reduce with: the cached one when it matches, otherwise a fresh build. Inlinable
  /// so the comparison is specialised for the reducer type.
  @inlinable
  static func entry<R: Reducer>(for reducer: R) -> Entry<R> {
    let dependencies = DependencyValues._current
    if let cached = cachedEntry(for: R.self) {
      // Entries are stored under their reducer type's identifier only.
      let entry = unsafeDowncast(cached, to: Entry<R>.self)
      if entry.matches(reducer, dependencies) { return entry }
    }
    return rebuild(reducer, dependencies)
  }

  /// The latest entry of `type`, if any; not generic, so callers specialise around it.
  @usableFromInline
  static func cachedEntry(for type: Any.Type) -> AnyObject? {
    let key = ObjectIdentifier(type)
    let slot = Table.slot(for: type)
    return table.withLock { $0.entry(for: key, slot: slot) }
  }

  /// Builds the body and makes it the type's latest entry.
  @usableFromInline
  static func rebuild<R: Reducer>(_ reducer: R, _ dependencies: DependencyValues) -> Entry<R> {
    let entry = Entry(reducer: reducer, dependencies: dependencies, body: reducer.body)
    table.withLock {
      $0.store(entry, for: ObjectIdentifier(R.self), slot: Table.slot(for: R.self))
    }
    return entry
  }
}

extension DependencyValues {
  /// Whether both hold the very same storage, so that every dependency resolves identically.
  /// Comparing bits is enough: the storage is reference-counted objects, never copied in place.
  @inlinable
  func isIdentical(to other: DependencyValues) -> Bool {
    withUnsafeBytes(of: self) { lhs in
      withUnsafeBytes(of: other) { rhs in
        memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
      }
    }
  }
}
