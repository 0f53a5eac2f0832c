import CustomDump
import Foundation

/// A feature's state as JSON, for `drive` and `replay --state`: written from what custom-dump
/// shows of it (field names, not `@ObservableState`'s storage; a shared value's value; an alert's
/// text), since feature states are not `Codable` and need not be.
enum StateJSON {
  /// `value` as one line of JSON with sorted keys.
  static func line(_ value: Any) -> String {
    let object = json(value)
    guard JSONSerialization.isValidJSONObject([object]),
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }

  /// `value` as the objects `JSONSerialization` writes.
  static func json(_ value: Any) -> Any {
    switch value {
    case let value as String: return value
    case let value as Bool: return value
    case let value as Int: return value
    case let value as Double: return value.isFinite ? value : "\(value)"
    case let value as any BinaryInteger: return Int(exactly: value) ?? "\(value)"
    case let value as any BinaryFloatingPoint: return json(Double(value))
    case let value as Date: return value.formatted(.iso8601)
    case let value as UUID: return value.uuidString
    case let value as URL: return value.absoluteString
    case let value as Duration:
      let (seconds, attoseconds) = value.components
      return Double(seconds) + Double(attoseconds) / 1e18
    case let value as any CustomDumpRepresentable: return json(value.customDumpValue)
    case let value as any CustomDumpStringConvertible: return value.customDumpDescription
    default: break
    }
    let mirror =
      (value as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { json($0.value) } ?? NSNull()
    case .collection, .set:
      return mirror.children.map { json($0.value) }
    case .dictionary:
      var object: [String: Any] = [:]
      for child in mirror.children {
        let pair = Mirror(reflecting: child.value).children.map(\.value)
        guard pair.count == 2 else { continue }
        object[key(pair[0])] = json(pair[1])
      }
      return object
    case .enum:
      // A case without a payload is its name; one with a payload is `{"name": payload}`.
      guard let payload = mirror.children.first else { return "\(value)" }
      return [payload.label ?? "\(value)": json(payload.value)]
    case .tuple:
      let children = Array(mirror.children)
      if children.allSatisfy({ $0.label?.first == "." || $0.label == nil }) {
        return children.count == 1 ? json(children[0].value) : children.map { json($0.value) }
      }
      return object(children)
    default:
      let children = Array(mirror.children)
      return children.isEmpty ? "\(value)" : object(children)
    }
  }

  private static func object(_ children: [Mirror.Child]) -> [String: Any] {
    var object: [String: Any] = [:]
    for (index, child) in children.enumerated() {
      let label = child.label ?? "\(index)"
      // The registrar and identity an `@ObservableState` type carries are not its state.
      guard !label.hasPrefix("_$") else { continue }
      object[label] = json(child.value)
    }
    return object
  }

  private static func key(_ value: Any) -> String {
    switch json(value) {
    case let string as String: string
    default: line(value)
    }
  }
}
