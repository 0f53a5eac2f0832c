import Dependencies
import DependenciesMacros
import Foundation

/// Creates accounts.
@DependencyClient
public struct SignUpClient: Sendable {
  /// Submits a sign-up; throws ``SignUpError``.
  public var submit: @Sendable (_ request: SignUpRequest) async throws -> SignUpResponse
}

/// What the sign-up form sends.
public struct SignUpRequest: Codable, Equatable, Sendable {
  /// The account's email.
  public var email: String
  /// The chosen password.
  public var password: String
  /// Whether the terms were accepted.
  public var acceptedTerms: Bool

  /// A request with the given fields.
  public init(email: String, password: String, acceptedTerms: Bool) {
    self.email = email
    self.password = password
    self.acceptedTerms = acceptedTerms
  }
}

/// The created account.
public struct SignUpResponse: Codable, Equatable, Sendable {
  /// The server's id for the account.
  public var userID: String
  /// The account's email, as the server stored it.
  public var email: String

  /// A response with the given fields.
  public init(userID: String, email: String) {
    self.userID = userID
    self.email = email
  }
}

/// The fields of the sign-up form, as the server names them in field errors.
public enum SignUpField: String, Codable, CaseIterable, Hashable, Sendable {
  /// The email field.
  case email
  /// The password field.
  case password
  /// The password confirmation field; the server never reports on it.
  case confirmPassword
  /// The accept-terms checkbox.
  case acceptTerms
}

/// Why a sign-up failed.
public enum SignUpError: Error, Equatable, Codable, Sendable, LocalizedError {
  /// The email already has an account (HTTP 409).
  case emailTaken
  /// The server rejected fields, with a message for each (HTTP 422).
  case invalidFields([SignUpField: String])
  /// The server answered with another unexpected status.
  case httpStatus(Int)
  /// The server could not be reached.
  case offline
  /// The server did not answer in time.
  case timeout
  /// The server's answer could not be read.
  case badResponse

  /// A sentence for the person using the app.
  public var errorDescription: String? {
    switch self {
    case .emailTaken: "An account with this email already exists."
    case .invalidFields(let errors):
      errors.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue): \($0.value)" }
        .joined(separator: "; ")
    case .httpStatus(let status): "The sign-up server answered with status \(status)."
    case .offline: "The sign-up server could not be reached."
    case .timeout: "The sign-up server did not answer in time."
    case .badResponse: "The sign-up server's answer could not be read."
    }
  }
}

extension SignUpClient: TestDependencyKey {
  /// Fails the test when a sign-up is submitted without an override.
  public static let testValue = SignUpClient()
  /// Accepts every sign-up after a short pause.
  public static let previewValue = SignUpClient { request in
    try await Task.sleep(for: .milliseconds(300))
    return SignUpResponse(userID: "preview-user", email: request.email)
  }
}

extension DependencyValues {
  /// The sign-up client.
  public var signUpClient: SignUpClient {
    get { self[SignUpClient.self] }
    set { self[SignUpClient.self] = newValue }
  }
}
