import Foundation
import HTTPTestServer
import LiveHTTP
import Testing

/// Against a real server on 127.0.0.1.
struct LiveHTTPTests {
  /// The deadline of a request the test expects an answer or a failure to at once: generous, as
  /// the suite's stress tests keep both cores busy for about 10 s, and a request made meanwhile
  /// waits that long.
  let prompt = Duration.seconds(60)

  @Test func aResponseComesBackWithItsStatusAndBody() async throws {
    let server = try await HTTPTestServer { request in
      .text("hello \(request.path)", status: 201)
    }
    defer { Task { try await server.shutdown() } }
    let response = try await LiveHTTP.send(
      LiveHTTP.Request(url: server.baseURL.appendingPathComponent("greet")), timeout: prompt)
    #expect(response.status == 201)
    #expect(String(decoding: response.body, as: UTF8.self) == "hello /greet")
  }

  @Test func aServerThatNeverAnswersTimesOutOnTime() async throws {
    let server = try await HTTPTestServer { _ in .hang }
    defer { Task { try await server.shutdown() } }
    let start = ContinuousClock.now
    await #expect(throws: LiveHTTP.TransportFailure.timeout) {
      try await LiveHTTP.send(LiveHTTP.Request(url: server.baseURL), timeout: .milliseconds(300))
    }
    // The deadline ends the wait (a loaded machine may take a few seconds to wind the cancelled
    // request down).
    #expect(ContinuousClock.now - start < .seconds(15))
  }

  @Test func aDroppedConnectionIsOffline() async throws {
    let server = try await HTTPTestServer { _ in .drop }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: LiveHTTP.TransportFailure.offline) {
      try await LiveHTTP.send(LiveHTTP.Request(url: server.baseURL), timeout: prompt)
    }
  }

  /// Tests run in parallel: a port that was merely free a moment ago may already be another test's
  /// server, which would answer the "unreachable" request.
  @Test func anUnusedPortCannotBeTakenWhileItIsInUse() async throws {
    try await HTTPTestServer.withUnusedPort { port in
      await #expect(throws: (any Error).self) {
        let server = try await HTTPTestServer(port: port) { _ in .text("taken") }
        try await server.shutdown()
      }
    }
  }

  @Test func aPortNobodyListensOnIsOffline() async throws {
    try await HTTPTestServer.withUnusedPort { port in
      await #expect(throws: LiveHTTP.TransportFailure.offline) {
        try await LiveHTTP.send(
          LiveHTTP.Request(url: URL(string: "http://127.0.0.1:\(port)/")!), timeout: prompt)
      }
    }
  }
}
