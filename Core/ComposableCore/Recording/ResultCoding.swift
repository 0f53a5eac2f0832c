/// A response action such as `.factResponse(Result<String, FactError>)` is recordable when its
/// value and its typed error are: written `{"success": …}` or `{"failure": …}`.
///
/// Retroactive: the standard library does not make `Result` `Codable`. Should it ever do so, its
/// conformance would take over and recordings made before would need this form to be read.
// swift-format-ignore: AvoidRetroactiveConformances
extension Result: @retroactive Encodable where Success: Encodable, Failure: Encodable {
  /// Writes the value or the error under its case's name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ResultCodingKeys.self)
    switch self {
    case .success(let value): try container.encode(value, forKey: .success)
    case .failure(let error): try container.encode(error, forKey: .failure)
    }
  }
}

// swift-format-ignore: AvoidRetroactiveConformances
extension Result: @retroactive Decodable where Success: Decodable, Failure: Decodable {
  /// Reads the form `encode(to:)` writes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ResultCodingKeys.self)
    switch (container.contains(.success), container.contains(.failure)) {
    case (true, false): self = .success(try container.decode(Success.self, forKey: .success))
    case (false, true): self = .failure(try container.decode(Failure.self, forKey: .failure))
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: container.codingPath,
          debugDescription: "A result has exactly one of success and failure."))
    }
  }
}

private enum ResultCodingKeys: String, CodingKey {
  case success, failure
}
