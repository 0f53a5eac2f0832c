import ConcurrencyExtras
import Dependencies
import Foundation

// Cancellation by id outside every store.
//
// A store owns its effects: inside one of its effects, `withTaskCancellation(id:)` and
// `Task.cancel(id:)` reach that store's work and nothing else. Work that runs outside every
// store — an operation wrapped in `withTaskCancellation(id:)` in plain async code, or an effect
// run on its own through `Effect.actions` — has no store to belong to. TCA keeps one table for
// the whole process, and code written against it (TCA's own effect tests among it) cancels such
// work from anywhere. This is that table, for that work only.
//
// Invariant: no effect a feature's store runs is ever listed here, so two stores never reach
// each other's work through it. Only `withTaskCancellation(id:)` and `Task.cancel(id:)` called
// outside a store's effect, and the stores `Effect.actions` makes, use it.

/// One level of the path that qualifies ids in the table of work outside stores: each one made
/// is unique.
@_spi(Internals)
public struct NavigationID: Hashable, Sendable {
  private let identifier = UUID()

  /// A level unlike every other.
  public init() {}
}

/// The path that qualifies an id in the table of work outside stores: cancelling under a path
/// reaches the work listed under it and under every path that goes on from it.
@_spi(Internals)
public struct NavigationIDPath: Hashable, Sendable {
  /// The levels, outermost first.
  public var path: [NavigationID]

  /// A path of `path`'s levels; the root path when empty.
  public init(path: [NavigationID] = []) {
    self.path = path
  }

  /// This path and each of its prefixes, longest first.
  public var prefixes: [NavigationIDPath] {
    (0...path.count).reversed().map { NavigationIDPath(path: Array(path.prefix($0))) }
  }

  /// This path with `element` added at its end.
  public func appending(_ element: NavigationID) -> Self {
    Self(path: path + [element])
  }
}

@_spi(Internals)
extension DependencyValues {
  /// The path under which work outside stores is listed and cancelled; the root by default.
  public var navigationIDPath: NavigationIDPath {
    get { self[NavigationIDPathKey.self] }
    set { self[NavigationIDPathKey.self] = newValue }
  }
}

private enum NavigationIDPathKey: DependencyKey {
  static let liveValue = NavigationIDPath()
  static let testValue = NavigationIDPath()
}

/// A cancellation id as the table lists it: the id, qualified by a path. Two ids of different
/// types are different, even when their values hash alike (every empty struct does).
@_spi(Internals)
public struct _CancelID: Hashable, Sendable {
  let id: EffectID
  let navigationIDPath: NavigationIDPath

  /// The id `id` under `navigationIDPath`.
  public init(id: some Hashable & Sendable, navigationIDPath: NavigationIDPath) {
    self.init(effectID: EffectID(id), navigationIDPath: navigationIDPath)
  }

  init(effectID: EffectID, navigationIDPath: NavigationIDPath) {
    self.id = effectID
    self.navigationIDPath = navigationIDPath
  }
}

/// The work outside stores that can be cancelled by id, each entry listed under its id at its
/// path and at every prefix of that path.
@_spi(Internals)
public struct CancellablesCollection: Sendable {
  private var storage: [_CancelID: [Int: @Sendable () -> Void]] = [:]
  private var nextToken = 0

  /// Whether anything is listed under `id` at exactly `path`.
  public func exists(at id: some Hashable & Sendable, path: NavigationIDPath) -> Bool {
    storage[_CancelID(id: id, navigationIDPath: path)] != nil
  }

  /// How many ids, each at one path, have something listed.
  public var count: Int { storage.count }

  /// Forgets everything listed, cancelling nothing.
  public mutating func removeAll() {
    storage.removeAll()
  }

  /// Lists `cancel` under `id` at `path` and its prefixes, returning the token that takes it off.
  mutating func insert(
    _ cancel: @escaping @Sendable () -> Void, at id: EffectID, path: NavigationIDPath
  ) -> Int {
    let token = nextToken
    nextToken &+= 1
    for prefix in path.prefixes {
      storage[_CancelID(effectID: id, navigationIDPath: prefix), default: [:]][token] = cancel
    }
    return token
  }

  /// Takes off what `insert` listed with `token`, wherever a cancellation has not already.
  mutating func remove(_ token: Int, at id: EffectID, path: NavigationIDPath) {
    for prefix in path.prefixes {
      let key = _CancelID(effectID: id, navigationIDPath: prefix)
      guard var entries = storage.removeValue(forKey: key) else { continue }
      entries[token] = nil
      if !entries.isEmpty { storage[key] = entries }
    }
  }

  /// Takes off everything listed under `id` at `path`, returning how to cancel each, for the
  /// caller to call outside the lock.
  mutating func cancel(_ id: EffectID, path: NavigationIDPath) -> [@Sendable () -> Void] {
    let key = _CancelID(effectID: id, navigationIDPath: path)
    return storage.removeValue(forKey: key).map { Array($0.values) } ?? []
  }
}

/// The one table of work outside stores (see the top of this file).
@_spi(Internals)
public let _cancellationCancellables = LockIsolated(CancellablesCollection())

/// The table's operations as the runtime uses them: cancelling calls the entries' closures after
/// the lock is let go, since they take other locks (a store's running effects).
enum DetachedCancellation {
  static func register(
    _ id: EffectID, path: NavigationIDPath, cancel: @escaping @Sendable () -> Void
  ) -> Int {
    _cancellationCancellables.withValue { $0.insert(cancel, at: id, path: path) }
  }

  static func unregister(_ token: Int, _ id: EffectID, path: NavigationIDPath) {
    _cancellationCancellables.withValue { $0.remove(token, at: id, path: path) }
  }

  static func cancel(_ id: EffectID, path: NavigationIDPath) {
    let cancels = _cancellationCancellables.withValue { $0.cancel(id, path: path) }
    for cancel in cancels { cancel() }
  }

  /// The path of work that starts here, outside a store.
  static var currentPath: NavigationIDPath {
    DependencyValues._current.navigationIDPath
  }
}
