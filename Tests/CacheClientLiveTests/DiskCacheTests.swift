import CacheClientLive
import ConcurrencyExtras
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A cache in a fresh temporary directory, with a clock the test moves.
final class CacheFixture: @unchecked Sendable {
  let directory: URL
  let now = LockIsolated(Date(timeIntervalSince1970: 1_700_000_000))
  let cache: DiskCache

  init(maximumBytes: Int = 64 * 1024 * 1024) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("disk-cache-\(UUID().uuidString)")
      .appendingPathComponent("cache")
    let now = self.now
    cache = try DiskCache(
      DiskCache.Configuration(directory: directory, maximumBytes: maximumBytes) { now.value }
    )
  }

  deinit {
    try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
  }

  func advance(by seconds: TimeInterval) {
    now.withValue { $0 = $0.addingTimeInterval(seconds) }
  }

  var entryFiles: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasSuffix(".cz") }.sorted()
  }

  func file(forKey key: String) -> URL {
    // The entry written for `key` is the only file when the cache holds just that key.
    directory.appendingPathComponent(entryFiles.first!)
  }
}

func json(_ count: Int, seed: Int = 0) -> Data {
  var text = "["
  for index in 0..<count {
    text += #"{"id":\#(index + seed),"title":"Item \#(index)","done":\#(index % 3 == 0)},"#
  }
  text += "{}]"
  return Data(text.utf8)
}

struct DiskCacheTests {
  @Test func roundTripReplaceAndRemove() throws {
    let fixture = try CacheFixture()
    let cache = fixture.cache
    #expect(cache.data(forKey: "orders/page/0") == nil)
    let payload = json(500)
    try cache.store(payload, forKey: "orders/page/0")
    #expect(cache.data(forKey: "orders/page/0") == payload)
    try cache.store(Data("replaced".utf8), forKey: "orders/page/0")
    #expect(cache.data(forKey: "orders/page/0") == Data("replaced".utf8))
    try cache.store(Data(), forKey: "empty")
    #expect(cache.data(forKey: "empty") == Data())
    try cache.remove(forKey: "orders/page/0")
    try cache.remove(forKey: "never stored")
    #expect(cache.data(forKey: "orders/page/0") == nil)
    let stats = try cache.stats()
    #expect(stats.entries == 1)
    #expect(stats.hits == 3)
    #expect(stats.misses == 2)
  }

  @Test func entriesAreCompressedAndStatsMeasureThem() throws {
    let fixture = try CacheFixture()
    let payload = json(2000)
    try fixture.cache.store(payload, forKey: "big")
    let stats = try fixture.cache.stats()
    #expect(stats.entries == 1)
    #expect(stats.bytesUncompressed == payload.count)
    #expect(stats.bytesOnDisk < payload.count / 5)
    #expect(stats.bytesOnDisk > 48)
  }

  @Test func expiredEntriesAreMissesAndAreRemoved() throws {
    let fixture = try CacheFixture()
    try fixture.cache.store(Data("fresh".utf8), forKey: "k", ttl: .seconds(60))
    fixture.advance(by: 59)
    #expect(fixture.cache.data(forKey: "k") == Data("fresh".utf8))
    fixture.advance(by: 1)
    #expect(fixture.cache.data(forKey: "k") == nil)
    #expect(fixture.entryFiles.isEmpty)
  }

  @Test func pruneRemovesExpiredCorruptAndStaleTemporaryFiles() throws {
    let fixture = try CacheFixture()
    try fixture.cache.store(Data("a".utf8), forKey: "expiring", ttl: .seconds(5))
    try fixture.cache.store(Data("b".utf8), forKey: "kept")
    let corrupt = fixture.directory.appendingPathComponent("0000000000000000.cz")
    try Data("garbage".utf8).write(to: corrupt)
    let stale = fixture.directory.appendingPathComponent(".tmp-1-2")
    try Data("half".utf8).write(to: stale)
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-7200)],
      ofItemAtPath: stale.path
    )
    let fresh = fixture.directory.appendingPathComponent(".tmp-1-3")
    try Data("in progress".utf8).write(to: fresh)
    fixture.advance(by: 10)
    #expect(try fixture.cache.prune() == 3)
    #expect(fixture.cache.data(forKey: "kept") == Data("b".utf8))
    #expect(FileManager.default.fileExists(atPath: fresh.path))
    #expect(try fixture.cache.stats().entries == 1)
  }

  @Test func evictsTheLeastRecentlyUsedEntriesPastTheLimit() throws {
    let payload = Data((0..<4000).map { _ in UInt8.random(in: 0...255) })  // incompressible
    let fixture = try CacheFixture(maximumBytes: 3 * 4100 + 200)
    let cache = fixture.cache
    for key in ["a", "b", "c"] {
      try cache.store(payload, forKey: key)
      fixture.advance(by: 1)
    }
    // Reading "a" makes "b" the least recently used.
    #expect(cache.data(forKey: "a") == payload)
    fixture.advance(by: 1)
    try cache.store(payload, forKey: "d")
    #expect(cache.data(forKey: "b") == nil)
    #expect(cache.data(forKey: "a") == payload)
    #expect(cache.data(forKey: "c") == payload)
    #expect(cache.data(forKey: "d") == payload)
    #expect(try cache.stats().bytesOnDisk <= 3 * 4100 + 200)
  }

  @Test func removeAllLeavesForeignFilesAlone() throws {
    let fixture = try CacheFixture()
    try fixture.cache.store(Data("1".utf8), forKey: "one")
    try fixture.cache.store(Data("2".utf8), forKey: "two")
    let foreign = fixture.directory.appendingPathComponent("README")
    try Data("not ours".utf8).write(to: foreign)
    // Files that only look like the cache's, left in a directory shared with something else.
    let lookalikes = ["other.cz", "0123456789ABCDEF.cz", "00000000000000000.cz", ".tmp-notes"].map {
      fixture.directory.appendingPathComponent($0)
    }
    for file in lookalikes { try Data("someone else's".utf8).write(to: file) }
    try fixture.cache.removeAll()
    #expect(try fixture.cache.prune() == 0)
    #expect(try fixture.cache.stats().entries == 0)
    #expect(FileManager.default.fileExists(atPath: foreign.path))
    for file in lookalikes {
      #expect(FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)")
    }
  }

  @Test func permissionsKeepTheCachePrivate() throws {
    let fixture = try CacheFixture()
    try fixture.cache.store(Data("secret".utf8), forKey: "k")
    let directoryMode =
      try FileManager.default.attributesOfItem(atPath: fixture.directory.path)[
        .posixPermissions
      ] as? Int
    #expect(directoryMode == 0o700)
    let fileMode =
      try FileManager.default.attributesOfItem(atPath: fixture.file(forKey: "k").path)[
        .posixPermissions
      ] as? Int
    #expect(fileMode == 0o600)
  }

  @Test func aKeyTooLongForTheHeaderIsATypedError() throws {
    let fixture = try CacheFixture()
    let key = String(repeating: "k", count: 70_000)
    #expect(throws: DiskCacheError.keyTooLong(length: 70_000)) {
      try fixture.cache.store(Data(), forKey: key)
    }
  }

  @Test func aFileInPlaceOfTheDirectoryIsATypedError() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-dir-\(UUID())")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(throws: DiskCacheError.notADirectory(path: file.path)) {
      try DiskCache(DiskCache.Configuration(directory: file))
    }
  }

  @Test func defaultDirectoryFollowsXDG() {
    #expect(
      DiskCache.Configuration.defaultDirectory(environment: [
        "XDG_CACHE_HOME": "/x/cache", "HOME": "/h",
      ])
      .path == "/x/cache/composable"
    )
    #expect(
      DiskCache.Configuration.defaultDirectory(environment: ["HOME": "/h"]).path
        == "/h/.cache/composable"
    )
    // A relative XDG path is ignored, as the specification says.
    #expect(
      DiskCache.Configuration.defaultDirectory(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"])
        .path == "/h/.cache/composable"
    )
  }
}
