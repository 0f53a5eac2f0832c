import Foundation

extension SessionReplay {
  /// Why `json` could not be decoded as an action, in the terms of the JSON form actions are
  /// written in (an object whose one key names the case, its values under `_0`, `_1`… or their
  /// labels): the unknown name, the missing value, and where. `root` is the key the action sits
  /// under, when it is part of a larger object, left out of the places named.
  public static func describeActionFailure(
    _ error: any Error, in json: Data, under root: String? = nil
  ) -> String {
    guard let document = try? JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    else { return #"it is not JSON; an action is written {"name":{…}}"# }
    func value(at path: [any CodingKey]) -> Any? {
      path.reduce(Optional(document)) { value, key in
        if let object = value as? [String: Any] { return object[key.stringValue] }
        if let array = value as? [Any], let index = key.intValue, array.indices.contains(index) {
          return array[index]
        }
        return nil
      }
    }
    func place(_ path: [any CodingKey]) -> String {
      var names = path.map(\.stringValue)
      if let root, names.first == root { names.removeFirst() }
      return names.isEmpty ? "" : " inside \(names.joined(separator: "."))"
    }
    switch error as? DecodingError {
    case .typeMismatch(_, let context)?, .dataCorrupted(let context)?:
      let found = value(at: context.codingPath)
      if let object = found as? [String: Any] {
        guard object.count == 1, let name = object.keys.first else {
          return "an action is an object with one key, its name\(place(context.codingPath)); "
            + "this one has \(object.count)"
        }
        // Decoding an enum from an object whose key is none of its cases fails this way.
        return "'\(name)' is not an action\(place(context.codingPath))"
      }
      if context.debugDescription.contains("Dictionary"), let found {
        let kind =
          found is [Any]
          ? "an array" : found is String ? "a string" : found is NSNull ? "null" : "a number"
        return #"an action is an object with one key, its name, as in {"name":{…}}"#
          + "\(place(context.codingPath)); this is \(kind)"
      }
      return "\(context.debugDescription)\(place(context.codingPath))"
    case .keyNotFound(let key, let context)?:
      return "'\(key.stringValue)' is missing\(place(context.codingPath))"
    case .valueNotFound(_, let context)?:
      return "a value is missing\(place(context.codingPath))"
    default:
      return "\(error)"
    }
  }
}
