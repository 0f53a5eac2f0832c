import Dependencies
import Foundation

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
  /// One entry per reducer type: the latest reducer value and the dependencies it was built
  /// under, with their bytes, and its body. The entry keeps the values alive, so equal bytes
  /// always mean the same objects.
  @usableFromInline
  final class Entry<R: Reducer>: @unchecked Sendable {
    let reducer: R
    let dependencies: DependencyValues
    let bytes: [UInt8]
    @usableFromInline let body: R.Body

    init(reducer: R, dependencies: DependencyValues, body: R.Body) {
      self.reducer = reducer
      self.dependencies = dependencies
      self.bytes = BodyCache.bytes(of: reducer, dependencies)
      self.body = body
    }

    func matches(_ reducer: R, _ dependencies: DependencyValues) -> Bool {
      bytes.withUnsafeBytes { stored in
        withUnsafeBytes(of: reducer) { reducer in
          withUnsafeBytes(of: dependencies) { dependencies in
            stored.count == reducer.count + dependencies.count
              && memcmp(stored.baseAddress!, dependencies.baseAddress!, dependencies.count) == 0
              && (reducer.isEmpty
                || memcmp(
                  stored.baseAddress! + dependencies.count, reducer.baseAddress!, reducer.count)
                  == 0)
          }
        }
      }
    }
  }

  private static let lock = RuntimeLock()
  /// Guarded by `lock`; behind a pointer so that lookups skip dynamic exclusivity checks.
  nonisolated(unsafe) private static let entries:
    UnsafeMutablePointer<
      [ObjectIdentifier: AnyObject]
    > = {
      let entries = UnsafeMutablePointer<[ObjectIdentifier: AnyObject]>.allocate(capacity: 1)
      entries.initialize(to: [:])
      return entries
    }()

  /// Runs `reducer`'s body, reused from the last time it was built when nothing it could depend
  /// on has changed.
  @inlinable
  static func reduce<R: Reducer>(
    _ reducer: R,
    into state: inout R.Body.State,
    action: R.Body.Action
  ) -> Effect<R.Body.Action> where R.Body: Reducer {
    // Reduce through the entry, which keeps the body alive, rather than copying the body out.
    entry(for: reducer).body.reduce(into: &state, action: action)
  }

  @usableFromInline
  static func entry<R: Reducer>(for reducer: R) -> Entry<R> {
    let dependencies = DependencyValues._current
    let key = ObjectIdentifier(R.self)
    if let cached = lock.withLock({ entries.pointee[key] }) {
      // Entries are stored under their reducer type's identifier only.
      let entry = unsafeDowncast(cached, to: Entry<R>.self)
      if entry.matches(reducer, dependencies) { return entry }
    }
    let entry = Entry(reducer: reducer, dependencies: dependencies, body: reducer.body)
    lock.withLock { entries.pointee[key] = entry }
    return entry
  }

  fileprivate static func bytes<R>(of reducer: R, _ dependencies: DependencyValues) -> [UInt8] {
    withUnsafeBytes(of: dependencies) { Array($0) } + withUnsafeBytes(of: reducer) { Array($0) }
  }
}
