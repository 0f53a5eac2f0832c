import Dependencies
import DependenciesMacros
import Foundation

/// A cache of bytes by key, with an optional time to live: network clients put responses through
/// it so the app starts instantly and works offline.
///
/// A miss is `nil`, never an error: a cache that cannot read an entry simply does not have it.
@DependencyClient
public struct CacheClient: Sendable {
  /// The bytes stored under a key, or `nil` when absent, expired or unreadable.
  public var data: @Sendable (_ forKey: String) async -> Data? = { _ in nil }
  /// Stores bytes under a key; `ttl` `nil` keeps them until evicted.
  public var store: @Sendable (Data, _ forKey: String, _ ttl: Duration?) async throws -> Void
  /// Removes the entry for a key, if any.
  public var remove: @Sendable (_ forKey: String) async throws -> Void
  /// Removes every entry.
  public var removeAll: @Sendable () async throws -> Void
  /// Removes expired and unreadable entries; returns how many were removed.
  public var prune: @Sendable () async throws -> Int
  /// Counts and sizes of the cache.
  public var stats: @Sendable () async throws -> CacheStats
}

/// Counts and sizes of a cache, for `composable cache stats`.
public struct CacheStats: Equatable, Sendable, Codable {
  /// Entries stored.
  public var entries: Int
  /// Bytes the entries take on disk, headers included.
  public var bytesOnDisk: Int
  /// Bytes of the entries' payloads before compression.
  public var bytesUncompressed: Int
  /// Lookups that found an entry, since this cache was opened.
  public var hits: Int
  /// Lookups that found nothing usable, since this cache was opened.
  public var misses: Int

  /// Stats with the given values.
  public init(entries: Int, bytesOnDisk: Int, bytesUncompressed: Int, hits: Int, misses: Int) {
    self.entries = entries
    self.bytesOnDisk = bytesOnDisk
    self.bytesUncompressed = bytesUncompressed
    self.hits = hits
    self.misses = misses
  }

  /// An empty cache that has not been used.
  public static let empty = CacheStats(
    entries: 0,
    bytesOnDisk: 0,
    bytesUncompressed: 0,
    hits: 0,
    misses: 0
  )
}

extension CacheClient {
  /// The value stored under a key, decoded from JSON; `nil` on a miss or when the bytes no longer
  /// decode (a format change between versions is a miss, not an error).
  public func value<Value: Decodable>(_ type: Value.Type, forKey key: String) async -> Value? {
    guard let data = await data(forKey: key) else { return nil }
    return try? JSONDecoder().decode(Value.self, from: data)
  }

  /// Stores a value as JSON.
  public func store<Value: Encodable>(
    value: Value,
    forKey key: String,
    ttl: Duration? = nil
  ) async throws {
    try await store(JSONEncoder().encode(value), forKey: key, ttl: ttl)
  }

  /// A cache held in memory, for previews and for tests of clients that sit in front of a cache.
  /// Expiry follows `now`.
  public static func inMemory(now: @escaping @Sendable () -> Date = Date.init) -> Self {
    let storage = InMemoryCache(now: now)
    return Self(
      data: { await storage.data(forKey: $0) },
      store: { await storage.store($0, forKey: $1, ttl: $2) },
      remove: { await storage.remove(forKey: $0) },
      removeAll: { await storage.removeAll() },
      prune: { await storage.prune() },
      stats: { await storage.stats() }
    )
  }
}

private actor InMemoryCache {
  private var entries: [String: (data: Data, expires: Date?)] = [:]
  private var hits = 0
  private var misses = 0
  private let now: @Sendable () -> Date

  init(now: @escaping @Sendable () -> Date) {
    self.now = now
  }

  func data(forKey key: String) -> Data? {
    guard let entry = entries[key], entry.expires.map({ $0 > now() }) ?? true else {
      entries[key] = nil
      misses += 1
      return nil
    }
    hits += 1
    return entry.data
  }

  func store(_ data: Data, forKey key: String, ttl: Duration?) {
    entries[key] = (data, ttl.map { now().addingTimeInterval($0.timeInterval) })
  }

  func remove(forKey key: String) {
    entries[key] = nil
  }

  func removeAll() {
    entries.removeAll()
  }

  func prune() -> Int {
    let date = now()
    let expired = entries.filter { $0.value.expires.map { $0 <= date } ?? false }.keys
    for key in expired { entries[key] = nil }
    return expired.count
  }

  func stats() -> CacheStats {
    let bytes = entries.values.reduce(0) { $0 + $1.data.count }
    return CacheStats(
      entries: entries.count,
      bytesOnDisk: bytes,
      bytesUncompressed: bytes,
      hits: hits,
      misses: misses
    )
  }
}

extension Duration {
  /// The duration in seconds, as Foundation measures time.
  public var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}

extension CacheClient: TestDependencyKey {
  /// Every endpoint fails the test unless overridden (reads return a miss after reporting).
  public static let testValue = CacheClient()
  /// An empty in-memory cache.
  public static var previewValue: CacheClient { .inMemory() }
}

extension DependencyValues {
  /// The cache network clients keep their responses in.
  public var cacheClient: CacheClient {
    get { self[CacheClient.self] }
    set { self[CacheClient.self] = newValue }
  }
}
