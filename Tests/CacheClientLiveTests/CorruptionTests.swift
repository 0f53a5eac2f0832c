import CacheClientLive
import ConcurrencyExtras
import Foundation
import Testing

/// Every kind of damage is a miss that removes the file: never a crash, never wrong bytes.
struct CorruptionTests {
  let payload = json(300)

  func storedEntry() throws -> (CacheFixture, URL, Data) {
    let fixture = try CacheFixture()
    try fixture.cache.store(payload, forKey: "entry")
    let url = fixture.file(forKey: "entry")
    return (fixture, url, try Data(contentsOf: url))
  }

  func expectMissAndRemoval(_ fixture: CacheFixture, _ url: URL, _ comment: Comment) {
    #expect(fixture.cache.data(forKey: "entry") == nil, comment)
    #expect(!FileManager.default.fileExists(atPath: url.path), comment)
    // The cache keeps working after the damage.
    #expect(throws: Never.self) { try fixture.cache.store(Data("again".utf8), forKey: "entry") }
    #expect(fixture.cache.data(forKey: "entry") == Data("again".utf8))
  }

  @Test func truncatedAtEveryInterestingOffset() throws {
    let (_, _, original) = try storedEntry()
    for length in [0, 3, 4, 10, 47, 48, 50, 53, 60, original.count / 2, original.count - 1] {
      let (fixture, url, _) = try storedEntry()
      try original.prefix(length).write(to: url)
      expectMissAndRemoval(fixture, url, "truncated to \(length) bytes")
    }
  }

  @Test func aFlippedByteAnywhereInTheHeader() throws {
    let (_, _, original) = try storedEntry()
    for offset in 0..<53 {  // the 48-byte header and the 5-byte key
      let (fixture, url, _) = try storedEntry()
      var damaged = original
      damaged[offset] ^= 0x5A
      try damaged.write(to: url)
      expectMissAndRemoval(fixture, url, "byte \(offset) flipped")
    }
  }

  @Test func aFlippedByteInThePayload() throws {
    let (_, _, original) = try storedEntry()
    for offset in stride(from: 53, to: original.count, by: max(1, original.count / 40)) {
      let (fixture, url, _) = try storedEntry()
      var damaged = original
      damaged[offset] ^= 0x01
      try damaged.write(to: url)
      expectMissAndRemoval(fixture, url, "payload byte \(offset) flipped")
    }
  }

  @Test func trailingBytes() throws {
    let (fixture, url, original) = try storedEntry()
    try (original + Data([0])).write(to: url)
    expectMissAndRemoval(fixture, url, "one byte appended")
  }

  @Test func anotherKeysEntryUnderThisKeysFileName() throws {
    let fixture = try CacheFixture()
    try fixture.cache.store(Data("other".utf8), forKey: "other")
    let otherFile = fixture.file(forKey: "other")
    try fixture.cache.store(payload, forKey: "entry")
    let entryFile = fixture.entryFiles.map { fixture.directory.appendingPathComponent($0) }
      .first { $0 != otherFile }!
    // Simulate a hash collision: this key's file holds another key's valid entry.
    try FileManager.default.removeItem(at: entryFile)
    try FileManager.default.copyItem(at: otherFile, to: entryFile)
    #expect(fixture.cache.data(forKey: "entry") == nil)
    #expect(!FileManager.default.fileExists(atPath: entryFile.path))
    #expect(fixture.cache.data(forKey: "other") == Data("other".utf8))
  }

  @Test func aDirectoryInPlaceOfAnEntry() throws {
    let (fixture, url, _) = try storedEntry()
    try FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    #expect(fixture.cache.data(forKey: "entry") == nil)
  }

  /// Thousands of random and mutated files: the reader returns either nothing or exactly the
  /// bytes that were stored.
  @Test func fuzzedFilesNeverCrashOrLie() throws {
    let fixture = try CacheFixture()
    try fixture.cache.store(payload, forKey: "entry")
    let url = fixture.file(forKey: "entry")
    let original = try Data(contentsOf: url)
    var generator = SystemRandomNumberGenerator()
    var hits = 0
    for round in 0..<3000 {
      var bytes: Data
      switch round % 4 {
      case 0:
        bytes = Data(
          (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255) })
      case 1:
        bytes = original
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255)
        }
      case 2:
        bytes = original.prefix(Int.random(in: 0..<original.count, using: &generator))
      default:
        // A valid header over random payload bytes.
        bytes =
          original.prefix(53)
          + Data((53..<original.count).map { _ in UInt8.random(in: 0...255) })
      }
      try bytes.write(to: url)
      if let read = fixture.cache.data(forKey: "entry") {
        #expect(read == payload, "round \(round) returned wrong bytes")
        hits += 1
      }
    }
    // Random damage almost never leaves an entry intact, but when it does the data is exact.
    #expect(hits < 30)
  }

  /// The cache-entry inputs libFuzzer kept (`Fuzz/Corpus/cache-entry`), each in place of an
  /// entry: a miss, or the entry's own bytes, and the cache still prunes and counts.
  @Test func theFuzzCorpusIsAMissOrTheEntry() throws {
    let corpus = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzz/Corpus/cache-entry")
    let inputs = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
    #expect(!inputs.isEmpty)
    for input in inputs {
      let (fixture, url, _) = try storedEntry()
      try Data(contentsOf: corpus.appendingPathComponent(input)).write(to: url)
      let read = fixture.cache.data(forKey: "entry")
      #expect(read == nil || read == payload, "\(input)")
      _ = try fixture.cache.prune()
      _ = try fixture.cache.stats()
    }
  }
}

/// Two independent caches over one directory, on separate threads, for a few seconds: every read
/// is either a miss or a complete, correct entry.
struct ConcurrencyTests {
  @Test func twoInstancesWritingAndReadingTheSameKeys() async throws {
    let fixture = try CacheFixture()
    let other = try DiskCache(DiskCache.Configuration(directory: fixture.directory))
    let keys = (0..<8).map { "shared/\($0)" }
    let deadline = Date().addingTimeInterval(2)
    let reads = LockIsolated(0)
    let bad = LockIsolated<[String]>([])

    @Sendable func value(for key: String, version: Int) -> Data {
      Data("\(key)|\(version)|".utf8) + json(50 + version % 50, seed: version)
    }
    @Sendable func check(_ data: Data, key: String) {
      let text = String(decoding: data, as: UTF8.self)
      let parts = text.split(separator: "|", maxSplits: 2)
      guard parts.count == 3, parts[0] == key, let version = Int(parts[1]),
        data == value(for: key, version: version)
      else {
        bad.withValue { $0.append(key) }
        return
      }
    }

    // Real threads, not tasks: the point is parallel file access, and a test store elsewhere may
    // have every task running on the main serial executor.
    let finished = DispatchGroup()
    for (index, cache) in [fixture.cache, other].enumerated() {
      finished.enter()
      Thread {
        defer { finished.leave() }
        var version = index
        while Date() < deadline {
          for key in keys {
            try? cache.store(value(for: key, version: version), forKey: key)
            if let data = cache.data(forKey: keys.randomElement()!) {
              reads.withValue { $0 += 1 }
              let key = String(
                decoding: data.prefix(while: { $0 != UInt8(ascii: "|") }), as: UTF8.self)
              check(data, key: key)
            }
          }
          version += 2
        }
      }.start()
    }
    // Told, not waited for: a global queue's thread blocked in `wait()` is one that every other
    // test's tasks need.
    await withCheckedContinuation { continuation in
      finished.notify(queue: .global()) { continuation.resume() }
    }
    #expect(bad.value.isEmpty)
    #expect(reads.value > 100)
    for key in keys {
      if let data = fixture.cache.data(forKey: key) { check(data, key: key) }
    }
  }
}
