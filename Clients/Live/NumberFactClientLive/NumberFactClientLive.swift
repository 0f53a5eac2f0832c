import CacheClient
import Dependencies
import Foundation
import LiveHTTP
@_exported import NumberFactClient

extension NumberFactClient {
  /// Where facts come from and how long they stay fresh.
  public struct Configuration: Sendable {
    /// The server; a fact about `n` is `GET {baseURL}/{n}` (the numbersapi.com convention).
    public var baseURL: URL
    /// How long to wait for an answer.
    public var timeout: Duration
    /// How long a cached fact is served without asking the server.
    public var freshFor: Duration
    /// How long a cached fact is kept to answer when the server cannot be reached.
    public var keepFor: Duration

    /// A configuration; every value has a default.
    public init(
      baseURL: URL = URL(string: "http://numbersapi.com")!,
      timeout: Duration = .seconds(5),
      freshFor: Duration = .seconds(24 * 3600),
      keepFor: Duration = .seconds(30 * 24 * 3600)
    ) {
      self.baseURL = baseURL
      self.timeout = timeout
      self.freshFor = freshFor
      self.keepFor = keepFor
    }
  }

  /// Facts over HTTP, cached in `cache`: a fresh cached fact answers at once, and a stale one
  /// answers when the server cannot.
  public static func live(
    configuration: Configuration = Configuration(),
    cache: CacheClient,
    now: @escaping @Sendable () -> Date = Date.init
  ) -> Self {
    Self { number in
      let key = "numberfact/v1/\(configuration.baseURL.absoluteString)/\(number)"
      let cached = await cache.value(CachedFact.self, forKey: key)
      if let cached, now().timeIntervalSince(cached.fetchedAt) < configuration.freshFor.timeInterval
      {
        return cached.fact
      }
      do {
        let fact = try await fetchFact(number, configuration: configuration)
        try? await cache.store(
          value: CachedFact(fact: fact, fetchedAt: now()),
          forKey: key,
          ttl: configuration.keepFor
        )
        return fact
      } catch {
        // Only an unreachable or silent server falls back to a stale fact; a server that
        // answers badly is reported.
        let failure = error as? NumberFactError
        guard failure == .offline || failure == .timeout, let cached else { throw error }
        return cached.fact
      }
    }
  }

  private static func fetchFact(
    _ number: Int,
    configuration: Configuration
  ) async throws -> String {
    let request = LiveHTTP.Request(
      url: configuration.baseURL.appendingPathComponent(String(number)),
      headers: [("Accept", "text/plain")])
    let response: LiveHTTP.Response
    do {
      response = try await LiveHTTP.send(request, timeout: configuration.timeout)
    } catch {
      throw error == .timeout ? NumberFactError.timeout : .offline
    }
    guard response.status == 200 else { throw NumberFactError.httpStatus(response.status) }
    guard
      let text = String(data: response.body, encoding: .utf8)?.trimmingCharacters(
        in: .whitespacesAndNewlines),
      !text.isEmpty, !text.hasPrefix("<"), !text.hasPrefix("{")
    else { throw NumberFactError.badBody }
    return text
  }
}

private struct CachedFact: Codable {
  var fact: String
  var fetchedAt: Date
}

extension NumberFactClient: DependencyKey {
  /// numbersapi.com, through the app's cache.
  public static var liveValue: NumberFactClient {
    NumberFactClient { number in
      @Dependency(\.cacheClient) var cache
      return try await NumberFactClient.live(cache: cache).fetch(number)
    }
  }
}
