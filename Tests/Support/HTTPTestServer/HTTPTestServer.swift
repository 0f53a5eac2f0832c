import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1 and a free port, for testing live clients against the
/// network stack rather than stubs. It runs on SwiftNIO's own threads, so it keeps serving
/// whatever executor the test's tasks run on.
public final class HTTPTestServer: Sendable {
  /// A request as the server received it.
  public struct Request: Sendable, Equatable {
    /// `GET`, `POST`…
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query items, in order.
    public var query: [URLQueryItem]
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: Data
  }

  /// What the server does with a request.
  public enum Reply: Sendable {
    /// Answers with a status, headers and body.
    case respond(status: Int, headers: [String: String] = [:], body: Data = Data())
    /// Never answers, so the client's timeout fires.
    case hang
    /// Closes the connection without answering.
    case drop

    /// A plain-text answer.
    public static func text(_ text: String, status: Int = 200) -> Self {
      .respond(status: status, headers: ["Content-Type": "text/plain"], body: Data(text.utf8))
    }

    /// A JSON answer.
    public static func json(_ body: some Encodable, status: Int = 200) -> Self {
      .respond(
        status: status,
        headers: ["Content-Type": "application/json"],
        body: (try? JSONEncoder().encode(body)) ?? Data()
      )
    }
  }

  private let group: MultiThreadedEventLoopGroup
  private let channel: any Channel
  private let received: NIOLockedValueBox<[Request]>
  private let isShutDown = NIOLockedValueBox(false)

  /// The port the server listens on.
  public let port: Int

  /// `http://127.0.0.1:<port>`.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Every request received so far, in order.
  public var requests: [Request] { received.withLockedValue { $0 } }

  /// Starts a server that answers each request with `handler`'s reply, on `port` or, by default, on
  /// a free port the kernel chooses.
  public init(port: Int = 0, handler: @escaping @Sendable (Request) -> Reply) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let received = NIOLockedValueBox<[Request]>([])
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 64)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(
            RequestHandler(handler: handler, received: received)
          )
        }
      }
      .bind(host: "127.0.0.1", port: port)
      .get()
    self.group = group
    self.channel = channel
    self.received = received
    self.port = channel.localAddress?.port ?? 0
  }

  /// Stops listening, closes open connections and ends the server's threads. Calling it again does
  /// nothing: a test may stop the server midway and still stop it in a `defer`, and a second
  /// shutdown of the threads would have NIO log an error (a crash in its later versions).
  public func shutdown() async throws {
    let wasShutDown = isShutDown.withLockedValue { isShutDown in
      defer { isShutDown = true }
      return isShutDown
    }
    guard !wasShutDown else { return }
    try? await channel.close()
    try await group.shutdownGracefully()
  }

  /// Runs `body` with a port on 127.0.0.1 where nothing listens, for "server unreachable" tests.
  /// The port stays bound, without listening, until `body` returns: a port that was only found free
  /// could be handed to another test's server running in parallel, which would then answer.
  @discardableResult
  public static func withUnusedPort<Result>(
    _ body: (Int) async throws -> Result
  ) async throws -> Result {
    let reserved = try ReservedPort()
    defer { withExtendedLifetime(reserved) {} }
    return try await body(reserved.port)
  }
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel chose, never listening: connections to it
/// are refused, and no other socket can bind the port while it is open (no `SO_REUSEADDR`).
private final class ReservedPort {
  let port: Int
  private let descriptor: Int32

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { address in
      address.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
    guard bound else {
      let failure = POSIXError(.init(rawValue: errno) ?? .EIO)
      close(descriptor)
      throw failure
    }
    self.descriptor = descriptor
    self.port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(descriptor) }
}

private final class RequestHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  let handler: @Sendable (HTTPTestServer.Request) -> HTTPTestServer.Reply
  let received: NIOLockedValueBox<[HTTPTestServer.Request]>
  private var head: HTTPRequestHead?
  private var body = Data()

  init(
    handler: @escaping @Sendable (HTTPTestServer.Request) -> HTTPTestServer.Reply,
    received: NIOLockedValueBox<[HTTPTestServer.Request]>
  ) {
    self.handler = handler
    self.received = received
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
      body = Data()
    case .body(var buffer):
      body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
    case .end:
      guard let head else { return }
      let components = URLComponents(string: head.uri)
      let request = HTTPTestServer.Request(
        method: head.method.rawValue,
        path: components?.path ?? head.uri,
        query: components?.queryItems ?? [],
        headers: Dictionary(
          head.headers.map { ($0.name.lowercased(), $0.value) },
          uniquingKeysWith: { first, _ in first }
        ),
        body: body
      )
      received.withLockedValue { $0.append(request) }
      switch handler(request) {
      case .hang:
        break
      case .drop:
        context.close(promise: nil)
      case .respond(let status, let fields, let body):
        var headers = HTTPHeaders(fields.map { ($0.key, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        headers.replaceOrAdd(name: "Connection", value: "close")
        let responseHead = HTTPResponseHead(
          version: head.version,
          status: HTTPResponseStatus(statusCode: status),
          headers: headers
        )
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
          context.close(promise: nil)
        }
      }
    }
  }
}
