import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The one way live clients talk HTTP: AsyncHTTPClient (SwiftNIO's event loops, which wait in
/// `epoll` and cost nothing while a server thinks) with a deadline, and transport failures sorted
/// into "could not reach the server" and "it did not answer in time".
public enum LiveHTTP {
  /// Why a request got no HTTP response at all.
  public enum TransportFailure: Error, Equatable, Sendable {
    /// The server could not be reached (no route, refused, DNS, dropped connection), or its
    /// answer was larger than ``maximumBodyBytes``.
    case offline
    /// The server did not answer before the deadline.
    case timeout
  }

  /// An HTTP request: its method, URL, headers and body.
  public struct Request: Sendable {
    /// The method, `GET` unless said.
    public var method: String
    /// Where the request goes: an `http` or `https` URL.
    public var url: URL
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: Data?

    /// A request of `method` to `url`.
    public init(
      _ method: String = "GET", url: URL, headers: [(name: String, value: String)] = [],
      body: Data? = nil
    ) {
      self.method = method
      self.url = url
      self.headers = headers
      self.body = body
    }
  }

  /// An HTTP response: its status and body.
  public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// The body, whole.
    public var body: Data
  }

  /// The largest body a response may have: a live client reads small JSON or text answers.
  public static let maximumBodyBytes = 8 * 1024 * 1024

  /// The one client every live client shares, on SwiftNIO's shared event loops. A server that
  /// refuses the connection fails the request at once, as "offline": the default client would
  /// retry with back-off until the request's deadline, and report a timeout. Call ``shutdown()``
  /// before the process exits.
  public static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.timeout.connect = .seconds(10)
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }()

  /// Closes the shared client's connections; requests after this fail as "offline".
  public static func shutdown() async {
    try? await client.shutdown()
  }

  /// Sends `request` and returns the response, or fails once `timeout` has passed, whether the
  /// server is silent before its headers or in the middle of its body.
  public static func send(
    _ request: Request,
    timeout: Duration,
    client: HTTPClient = LiveHTTP.client
  ) async throws(TransportFailure) -> Response {
    var outgoing = HTTPClientRequest(url: request.url.absoluteString)
    outgoing.method = HTTPMethod(rawValue: request.method)
    for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
    if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
    let prepared = outgoing
    let outcome: Response?
    do {
      // The deadline covers the body too: the request races a sleep, and the loser is
      // cancelled (which closes the connection).
      outcome = try await withThrowingTaskGroup(of: Response?.self) { group in
        group.addTask {
          let response = try await client.execute(prepared, timeout: .seconds(3600))
          let body = try await response.body.collect(upTo: maximumBodyBytes)
          return Response(status: Int(response.status.code), body: Data(body.readableBytesView))
        }
        group.addTask {
          try await Task.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
      }
    } catch let error as HTTPClientError
      where [.deadlineExceeded, .connectTimeout, .readTimeout].contains(error)
    {
      throw .timeout
    } catch {
      throw .offline
    }
    guard let outcome else { throw .timeout }
    return outcome
  }
}
