import CacheClient
import ConcurrencyExtras
import Dependencies
import Foundation
import Testing

struct CacheClientTests {
  @Test func inMemoryCacheRoundTripsAndCounts() async throws {
    let cache = CacheClient.inMemory()
    #expect(await cache.data(forKey: "a") == nil)
    try await cache.store(Data("x".utf8), forKey: "a", ttl: nil)
    #expect(await cache.data(forKey: "a") == Data("x".utf8))
    try await cache.remove(forKey: "a")
    #expect(await cache.data(forKey: "a") == nil)
    let stats = try await cache.stats()
    #expect(
      stats == CacheStats(entries: 0, bytesOnDisk: 0, bytesUncompressed: 0, hits: 1, misses: 2))
  }

  @Test func inMemoryCacheExpiresOnItsClock() async throws {
    let now = LockIsolated(Date(timeIntervalSince1970: 1000))
    let cache = CacheClient.inMemory { now.value }
    try await cache.store(Data("v".utf8), forKey: "k", ttl: .seconds(10))
    try await cache.store(Data("w".utf8), forKey: "forever", ttl: nil)
    now.setValue(Date(timeIntervalSince1970: 1009))
    #expect(await cache.data(forKey: "k") != nil)
    now.setValue(Date(timeIntervalSince1970: 1010))
    #expect(try await cache.prune() == 1)
    #expect(await cache.data(forKey: "k") == nil)
    #expect(await cache.data(forKey: "forever") == Data("w".utf8))
  }

  @Test func codableHelpersRoundTripAndTreatUndecodableAsAMiss() async throws {
    struct Fact: Codable, Equatable {
      var number: Int
      var text: String
    }
    let cache = CacheClient.inMemory()
    try await cache.store(value: Fact(number: 42, text: "answer"), forKey: "fact")
    #expect(await cache.value(Fact.self, forKey: "fact") == Fact(number: 42, text: "answer"))
    try await cache.store(Data("not json".utf8), forKey: "fact", ttl: nil)
    #expect(await cache.value(Fact.self, forKey: "fact") == nil)
  }

  @Test func theTestValueReportsUnexpectedUse() async {
    let cache = CacheClient.testValue
    await withKnownIssue {
      _ = await cache.data(forKey: "anything")
    } matching: { issue in
      issue.description.contains("Unimplemented: 'CacheClient.data'")
    }
  }

  @Test func durationsConvertToTimeIntervals() {
    #expect(Duration.seconds(90).timeInterval == 90)
    #expect(Duration.milliseconds(1500).timeInterval == 1.5)
  }
}
