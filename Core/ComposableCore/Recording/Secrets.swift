import ComposableSharing
import Foundation

/// State holding secrets a recording must never write, such as a password: each secret field is
/// written as a stand-in, in the state and in every action that carries the same text.
///
/// A stand-in has the secret's length and kinds of characters (letters, digits, others), and two
/// different secrets of a recording get different stand-ins, so that rules such as "at least 8
/// characters with a digit" or "the confirmation matches" decide alike and a replay still checks
/// every step.
public protocol RecordingSecrets {
  /// The fields that hold secrets.
  static var secretFields: [WritableKeyPath<Self, String>] { get }
}

/// The stand-ins of one recording's secrets, made as secrets are first seen.
final class SecretStandIns: Sendable {
  private let standIns = Locked<[String: String]>([:])

  /// The secret fields of `State`, when it has any.
  static func fields<State>(of _: State.Type) -> [WritableKeyPath<State, String>] {
    func open<Secretive: RecordingSecrets>(_: Secretive.Type) -> [AnyKeyPath] {
      Secretive.secretFields
    }
    guard let type = State.self as? any RecordingSecrets.Type else { return [] }
    return open(type).compactMap { $0 as? WritableKeyPath<State, String> }
  }

  /// `state` with each secret field replaced by its stand-in.
  func redacting<State>(_ state: State, fields: [WritableKeyPath<State, String>]) -> State {
    var redacted = state
    for field in fields {
      let secret = state[keyPath: field]
      guard !secret.isEmpty else { continue }
      redacted[keyPath: field] = standIn(for: secret)
    }
    return redacted
  }

  /// `action` with every string equal to a secret seen so far replaced by its stand-in: the
  /// action is encoded, changed as JSON, and decoded again.
  func redacting<Action: Codable>(_ action: Action, encoder: JSONEncoder) throws -> Action {
    let secrets = standIns.withLock { $0 }
    guard !secrets.isEmpty else { return action }
    var changed = false
    func redact(_ value: Any) -> Any {
      switch value {
      case let string as String:
        guard let standIn = secrets[string] else { return string }
        changed = true
        return standIn
      case let array as [Any]: return array.map(redact)
      case let object as [String: Any]: return object.mapValues(redact)
      default: return value
      }
    }
    let json = try JSONSerialization.jsonObject(
      with: encoder.encode(action), options: .fragmentsAllowed)
    let redacted = redact(json)
    guard changed else { return action }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(
      Action.self,
      from: JSONSerialization.data(withJSONObject: redacted, options: .fragmentsAllowed))
  }

  /// The stand-in of `secret`: the same each time, and never another secret's or the secret
  /// itself.
  func standIn(for secret: String) -> String {
    standIns.withLock { standIns in
      if let known = standIns[secret] { return known }
      let taken = Set(standIns.values).union(standIns.keys)
      var variant = 0
      var candidate = Self.shape(of: secret, variant: variant)
      while taken.contains(candidate) || candidate == secret {
        variant += 1
        // Past every shape a short secret can take, a stand-in that says what it is.
        candidate =
          variant < 64 ? Self.shape(of: secret, variant: variant) : "secret-\(standIns.count + 1)"
      }
      standIns[secret] = candidate
      return candidate
    }
  }

  /// Characters of the same kinds as `secret`'s, drawn from a sequence that `variant` shifts.
  private static func shape(of secret: String, variant: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let digits = Array("0123456789")
    let others = Array("*#%&+=?!")
    return String(
      secret.enumerated().map { offset, character -> Character in
        let index = variant + offset
        if character.isLetter {
          let letter = letters[index % letters.count]
          return character.isUppercase ? Character(letter.uppercased()) : letter
        }
        if character.isNumber { return digits[index % digits.count] }
        if character.isWhitespace { return " " }
        return others[index % others.count]
      })
  }
}
