/// A state whose binding actions can be recorded and replayed: it names each field a binding may
/// set, since a key path has no name of its own to write.
///
/// ```swift
/// extension SignUpForm.State: BindingCodable {
///   public static let codableBindings: [BindingField<Self>] = [
///     .field("email", \.email), .field("acceptTerms", \.acceptTerms),
///   ]
/// }
/// ```
public protocol BindingCodable {
  /// The fields bindings set, each with the name it is written under.
  static var codableBindings: [BindingField<Self>] { get }
}

extension BindingCodable {
  /// The name `codableBindings` gives the field at `keyPath`, if it lists it.
  public static func _bindingName(for keyPath: AnyKeyPath) -> String? {
    codableBindings.first { $0.keyPath == keyPath }?.name
  }
}

/// One field of a ``BindingCodable`` state: its name, its key path, and how its value is coded.
public struct BindingField<Root>: @unchecked Sendable {
  // Unchecked: a key path is an immutable object and the closures capture only it.
  let name: String
  let keyPath: PartialKeyPath<Root>
  let encodeValue: (any Sendable, inout KeyedEncodingContainer<BindingCodingKeys>) throws -> Void
  let decodeAction: (KeyedDecodingContainer<BindingCodingKeys>) throws -> BindingAction<Root>

  /// The field at `keyPath`, written as `name`.
  public static func field<Value: Codable & Equatable & Sendable>(
    _ name: String,
    _ keyPath: WritableKeyPath<Root, Value>
  ) -> Self {
    Self(
      name: name,
      keyPath: keyPath,
      encodeValue: { value, container in
        try container.encode(value as! Value, forKey: .value)
      },
      decodeAction: { container in
        .set(keyPath, try container.decode(Value.self, forKey: .value))
      }
    )
  }
}

/// The keys a binding action is written with: `{"field": "email", "value": "a@b.c"}`.
public enum BindingCodingKeys: String, CodingKey {
  case field, value
}

extension BindingAction: Codable where Root: BindingCodable {
  /// Reads `{"field": name, "value": …}` for a field the state lists.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: BindingCodingKeys.self)
    let name = try container.decode(String.self, forKey: .field)
    guard let field = Root.codableBindings.first(where: { $0.name == name }) else {
      throw DecodingError.dataCorruptedError(
        forKey: .field, in: container,
        debugDescription: "\(Root.self) has no binding field named '\(name)'.")
    }
    self = try field.decodeAction(container)
  }

  /// Writes the field's name and the new value; a field the state does not list is an error
  /// naming its key path.
  public func encode(to encoder: any Encoder) throws {
    guard let field = Root.codableBindings.first(where: { $0.keyPath == keyPath }) else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: encoder.codingPath,
          debugDescription:
            "\(keyPath) is not among \(Root.self).codableBindings, so it cannot be written."))
    }
    var container = encoder.container(keyedBy: BindingCodingKeys.self)
    try container.encode(field.name, forKey: .field)
    try field.encodeValue(value, &container)
  }
}
