import Dependencies
import DependenciesMacros
import Foundation

/// Fetches a trivia fact about a number.
@DependencyClient
public struct NumberFactClient: Sendable {
  /// A fact about `number`; throws ``NumberFactError``.
  public var fetch: @Sendable (_ number: Int) async throws -> String
}

/// Why a fact could not be fetched.
public enum NumberFactError: Error, Equatable, Codable, Sendable, LocalizedError {
  /// The server could not be reached.
  case offline
  /// The server did not answer in time.
  case timeout
  /// The server answered with a status other than 200.
  case httpStatus(Int)
  /// The answer was not a fact (empty, or not text).
  case badBody

  /// A sentence for the person using the app.
  public var errorDescription: String? {
    switch self {
    case .offline: "The number facts server could not be reached."
    case .timeout: "The number facts server did not answer in time."
    case .httpStatus(let status): "The number facts server answered with status \(status)."
    case .badBody: "The number facts server sent something that is not a fact."
    }
  }
}

extension NumberFactClient: TestDependencyKey {
  /// Fails the test when a fact is fetched without an override.
  public static let testValue = NumberFactClient()
  /// A made-up fact, instantly.
  public static let previewValue = NumberFactClient { "\($0) is a good number." }
}

extension DependencyValues {
  /// The number fact client.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}
