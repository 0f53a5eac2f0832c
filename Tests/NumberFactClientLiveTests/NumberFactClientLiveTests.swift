import CacheClient
import ConcurrencyExtras
import Foundation
import HTTPTestServer
import NumberFactClientLive
import Testing

/// The live number fact client against a real HTTP server on 127.0.0.1.
struct NumberFactClientLiveTests {
  func client(
    _ server: HTTPTestServer,
    cache: CacheClient = .inMemory(),
    // Generous: the server answers at once, but the suite's stress tests (twenty writer
    // processes, fifty writer threads) keep both cores busy for about 10 s, and a request made
    // meanwhile waits that long.
    timeout: Duration = .seconds(60),
    now: @escaping @Sendable () -> Date = Date.init
  ) -> NumberFactClient {
    .live(
      configuration: NumberFactClient.Configuration(
        baseURL: server.baseURL.appendingPathComponent("facts"),
        timeout: timeout,
        freshFor: .seconds(60)
      ),
      cache: cache,
      now: now
    )
  }

  @Test func fetchesAFactAsPlainText() async throws {
    let server = try await HTTPTestServer { request in
      .text("\(request.path.split(separator: "/").last ?? "?") is a number.\n")
    }
    defer { Task { try await server.shutdown() } }
    #expect(try await client(server).fetch(42) == "42 is a number.")
    #expect(server.requests.map(\.path) == ["/facts/42"])
    #expect(server.requests.first?.method == "GET")
  }

  @Test(arguments: [404, 500, 503])
  func anErrorStatusIsTyped(status: Int) async throws {
    let server = try await HTTPTestServer { _ in .text("nope", status: status) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: NumberFactError.httpStatus(status)) {
      try await client(server).fetch(1)
    }
  }

  @Test func aServerThatDoesNotAnswerTimesOut() async throws {
    let server = try await HTTPTestServer { _ in .hang }
    defer { Task { try await server.shutdown() } }
    let started = ContinuousClock.now
    await #expect(throws: NumberFactError.timeout) {
      try await client(server, timeout: .milliseconds(300)).fetch(1)
    }
    // The client's own deadline fired, not URLSession's backstop 30 s later.
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .milliseconds(300))
    #expect(elapsed < .seconds(15))
  }

  @Test func aBodyThatIsNotAFactIsABadBody() async throws {
    for body in ["", "   \n", "<html>oops</html>", #"{"error":"x"}"#] {
      let server = try await HTTPTestServer { _ in .text(body) }
      await #expect(throws: NumberFactError.badBody, "body \(body.debugDescription)") {
        try await client(server).fetch(1)
      }
      try await server.shutdown()
    }
    let binary = try await HTTPTestServer { _ in
      .respond(status: 200, body: Data([0xFF, 0xFE, 0xFD]))
    }
    defer { Task { try await binary.shutdown() } }
    await #expect(throws: NumberFactError.badBody) { try await client(binary).fetch(1) }
  }

  @Test func anUnreachableServerIsOffline() async throws {
    try await HTTPTestServer.withUnusedPort { port in
      let client = NumberFactClient.live(
        configuration: NumberFactClient.Configuration(
          baseURL: URL(string: "http://127.0.0.1:\(port)")!,
          timeout: .seconds(60)
        ),
        cache: .inMemory()
      )
      await #expect(throws: NumberFactError.offline) { try await client.fetch(1) }
    }
  }

  @Test func aFreshCachedFactAnswersWithoutTheNetwork() async throws {
    let server = try await HTTPTestServer { _ in .text("7 is prime.") }
    defer { Task { try await server.shutdown() } }
    let cache = CacheClient.inMemory()
    let facts = client(server, cache: cache)
    #expect(try await facts.fetch(7) == "7 is prime.")
    #expect(try await facts.fetch(7) == "7 is prime.")
    #expect(server.requests.count == 1)
  }

  @Test func aStaleCachedFactIsServedWhenTheServerIsDown() async throws {
    let now = LockIsolated(Date(timeIntervalSince1970: 1_000_000))
    let cache = CacheClient.inMemory { now.value }
    let server = try await HTTPTestServer { _ in .text("9 is square.") }
    let facts = client(server, cache: cache) { now.value }
    #expect(try await facts.fetch(9) == "9 is square.")
    try await server.shutdown()

    // An hour later the fact is stale, and the server is gone: the cached fact answers.
    now.withValue { $0 += 3600 }
    #expect(try await facts.fetch(9) == "9 is square.")
    // With nothing cached, the failure is reported.
    await #expect(throws: NumberFactError.offline) { try await facts.fetch(10) }
  }

  @Test func aStaleFactIsRefreshedWhenTheServerAnswers() async throws {
    let now = LockIsolated(Date(timeIntervalSince1970: 1_000_000))
    let answers = LockIsolated(0)
    let server = try await HTTPTestServer { _ in
      let answer = answers.withValue { count -> Int in
        count += 1
        return count
      }
      return .text("answer \(answer)")
    }
    defer { Task { try await server.shutdown() } }
    let facts = client(server, cache: .inMemory { now.value }) { now.value }
    #expect(try await facts.fetch(3) == "answer 1")
    now.withValue { $0 += 30 }
    #expect(try await facts.fetch(3) == "answer 1")
    now.withValue { $0 += 60 }
    #expect(try await facts.fetch(3) == "answer 2")
  }

  @Test func aServerErrorIsReportedEvenWithAStaleFact() async throws {
    let now = LockIsolated(Date(timeIntervalSince1970: 1_000_000))
    let fail = LockIsolated(false)
    let server = try await HTTPTestServer { _ in
      fail.value ? .text("down", status: 500) : .text("ok")
    }
    defer { Task { try await server.shutdown() } }
    let facts = client(server, cache: .inMemory { now.value }) { now.value }
    #expect(try await facts.fetch(1) == "ok")
    fail.setValue(true)
    now.withValue { $0 += 3600 }
    await #expect(throws: NumberFactError.httpStatus(500)) { try await facts.fetch(1) }
  }
}
