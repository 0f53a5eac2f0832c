import Dependencies
import Foundation
import LiveHTTP
@_exported import SignUpClient

extension SignUpClient {
  /// Where sign-ups go.
  public struct Configuration: Sendable {
    /// The endpoint that receives `POST` with a JSON ``SignUpRequest``.
    public var endpoint: URL
    /// How long to wait for an answer.
    public var timeout: Duration

    /// A configuration; every value has a default.
    public init(
      endpoint: URL = URL(string: "http://127.0.0.1:8080/api/signup")!,
      timeout: Duration = .seconds(10)
    ) {
      self.endpoint = endpoint
      self.timeout = timeout
    }
  }

  /// Sign-ups over HTTP: 200/201 with the account, 409 for a taken email, 422 with field errors
  /// (`{"errors": {"email": "…"}}`).
  public static func live(
    configuration: Configuration = Configuration()
  ) -> Self {
    Self { signUp in
      let body: Data
      do {
        body = try JSONEncoder().encode(signUp)
      } catch {
        throw SignUpError.badResponse
      }
      let request = LiveHTTP.Request(
        "POST", url: configuration.endpoint,
        headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
        body: body)
      let response: LiveHTTP.Response
      do {
        response = try await LiveHTTP.send(request, timeout: configuration.timeout)
      } catch {
        throw (error as? LiveHTTP.TransportFailure) == .timeout ? SignUpError.timeout : .offline
      }
      let data = response.body
      switch response.status {
      case 200, 201:
        guard let account = try? JSONDecoder().decode(SignUpResponse.self, from: data) else {
          throw SignUpError.badResponse
        }
        return account
      case 409:
        throw SignUpError.emailTaken
      case 422:
        guard let body = try? JSONDecoder().decode(FieldErrors.self, from: data) else {
          throw SignUpError.httpStatus(422)
        }
        let errors = Dictionary(
          uniqueKeysWithValues: body.errors.compactMap { key, message in
            SignUpField(rawValue: key).map { ($0, message) }
          }
        )
        throw errors.isEmpty ? SignUpError.httpStatus(422) : .invalidFields(errors)
      default:
        throw SignUpError.httpStatus(response.status)
      }
    }
  }
}

private struct FieldErrors: Decodable {
  var errors: [String: String]
}

extension SignUpClient: DependencyKey {
  /// The default endpoint.
  public static let liveValue = SignUpClient.live()
}
