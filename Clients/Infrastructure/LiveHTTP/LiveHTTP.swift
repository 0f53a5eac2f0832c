import Foundation

extension Duration {
  /// The duration in seconds, as Foundation measures time.
  fileprivate var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}

#if canImport(FoundationNetworking)
  @_exported import FoundationNetworking
#endif

/// The one way live clients talk HTTP: URLSession with a deadline, and transport failures sorted
/// into "could not reach the server" and "it did not answer in time".
public enum LiveHTTP {
  /// Why a request got no HTTP response at all.
  public enum TransportFailure: Error, Equatable, Sendable {
    /// The server could not be reached (no route, refused, DNS, dropped connection).
    case offline
    /// The server did not answer before the deadline.
    case timeout
  }

  /// Sends `request` and returns the body and the response, or fails once `timeout` has passed.
  ///
  /// The deadline is enforced here, by racing the request against a sleep: FoundationNetworking
  /// on Linux truncates `timeoutInterval` to whole seconds (0.5 s becomes "at once"), so that is
  /// only set, 30 s later, as a backstop.
  public static func send(
    _ request: URLRequest,
    timeout: Duration,
    session: URLSession = LiveHTTP.session
  ) async throws(TransportFailure) -> (Data, HTTPURLResponse) {
    var request = request
    request.timeoutInterval = (timeout.timeInterval + 30).rounded(.up)
    let prepared = request
    let outcome: (Data, URLResponse)?
    do {
      outcome = try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
        group.addTask { try await session.data(for: prepared) }
        group.addTask {
          try await Task.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
      }
    } catch let error as URLError where error.code == .timedOut {
      throw .timeout
    } catch {
      throw .offline
    }
    guard let (data, response) = outcome else { throw .timeout }
    guard let http = response as? HTTPURLResponse else { throw .offline }
    return (data, http)
  }

  /// A session that neither caches nor stores cookies: clients cache through `CacheClient`.
  public static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }()
}
