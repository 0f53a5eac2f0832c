import Foundation
import HTTPTestServer
import SignUpClientLive
import Testing

/// The live sign-up client against a real HTTP server on 127.0.0.1.
struct SignUpClientLiveTests {
  let request = SignUpRequest(email: "ada@example.com", password: "engine42", acceptedTerms: true)

  // Generous for the same reason as the number fact client tests: a loaded machine.
  func client(_ server: HTTPTestServer, timeout: Duration = .seconds(60)) -> SignUpClient {
    .live(
      configuration: SignUpClient.Configuration(
        endpoint: server.baseURL.appendingPathComponent("api/signup"),
        timeout: timeout
      )
    )
  }

  @Test func postsJSONAndReadsTheAccount() async throws {
    let server = try await HTTPTestServer { request in
      let body = try? JSONDecoder().decode(SignUpRequest.self, from: request.body)
      return .json(SignUpResponse(userID: "u-1", email: body?.email ?? "?"), status: 201)
    }
    defer { Task { try await server.shutdown() } }
    let account = try await client(server).submit(request)
    #expect(account == SignUpResponse(userID: "u-1", email: "ada@example.com"))
    let received = try #require(server.requests.first)
    #expect(received.method == "POST")
    #expect(received.path == "/api/signup")
    #expect(received.headers["content-type"] == "application/json")
    #expect(try JSONDecoder().decode(SignUpRequest.self, from: received.body) == request)
  }

  @Test func conflictMeansTheEmailIsTaken() async throws {
    let server = try await HTTPTestServer { _ in .text("exists", status: 409) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.emailTaken) { try await client(server).submit(request) }
  }

  @Test func unprocessableCarriesFieldErrors() async throws {
    let server = try await HTTPTestServer { _ in
      .json(["errors": ["password": "too common", "nickname": "ignored"]], status: 422)
    }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.invalidFields([.password: "too common"])) {
      try await client(server).submit(request)
    }
  }

  @Test func unprocessableWithoutKnownFieldsIsAStatus() async throws {
    let server = try await HTTPTestServer { _ in .text("bad", status: 422) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.httpStatus(422)) { try await client(server).submit(request) }
  }

  @Test func serverErrorIsAStatus() async throws {
    let server = try await HTTPTestServer { _ in .text("boom", status: 500) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.httpStatus(500)) { try await client(server).submit(request) }
  }

  @Test func malformedSuccessBodyIsABadResponse() async throws {
    let server = try await HTTPTestServer { _ in .text("{not json", status: 200) }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.badResponse) { try await client(server).submit(request) }
  }

  @Test func aSilentServerTimesOut() async throws {
    let server = try await HTTPTestServer { _ in .hang }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.timeout) {
      try await client(server, timeout: .milliseconds(300)).submit(request)
    }
  }

  @Test func aDroppedConnectionIsOffline() async throws {
    let server = try await HTTPTestServer { _ in .drop }
    defer { Task { try await server.shutdown() } }
    await #expect(throws: SignUpError.offline) { try await client(server).submit(request) }
  }
}
