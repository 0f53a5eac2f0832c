import SwiftDiagnostics
import SwiftSyntax

extension DeclModifierListSyntax {
  /// The `public` or `package` modifier the macros repeat on what they generate, so a public
  /// reducer gets public members; `internal`, `fileprivate` and `private` need no repeating.
  var accessPrefix: String {
    for modifier in self {
      switch modifier.name.tokenKind {
      case .keyword(.public), .keyword(.open): return "public "
      case .keyword(.package): return "package "
      default: continue
      }
    }
    return ""
  }

  var isStatic: Bool {
    contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
  }
}

extension AttributeListSyntax {
  /// Whether an attribute named `name` (bare or module-qualified) is in the list.
  func contains(named name: String) -> Bool {
    contains { element in
      guard case .attribute(let attribute) = element else { return false }
      return attribute.attributeName.lastNameComponent == name
    }
  }

  /// The `@available` attributes, repeated on a generated extension so it is no more available
  /// than the type.
  var availability: AttributeListSyntax {
    AttributeListSyntax(
      filter { element in
        guard case .attribute(let attribute) = element else { return false }
        return attribute.attributeName.lastNameComponent == "available"
      }
      .map { $0.with(\.trailingTrivia, .space) }
    )
  }
}

extension TypeSyntax {
  /// The last component of a possibly qualified type name: `Reducer` for
  /// `ComposableCore.Reducer`.
  var lastNameComponent: String {
    if let identifier = self.as(IdentifierTypeSyntax.self) { return identifier.name.text }
    if let member = self.as(MemberTypeSyntax.self) { return member.name.text }
    return trimmedDescription
  }
}

extension InheritanceClauseSyntax? {
  /// Whether the clause names `name` (bare or module-qualified).
  func contains(_ name: String) -> Bool {
    guard let self else { return false }
    return self.inheritedTypes.contains { $0.type.lastNameComponent == name }
  }
}

/// A macro error or warning with an optional fix-it message.
struct MacroMessage: DiagnosticMessage, FixItMessage {
  let message: String
  let id: String
  var severity: DiagnosticSeverity = .error

  var diagnosticID: MessageID { MessageID(domain: "ComposableMacros", id: id) }
  var fixItID: MessageID { diagnosticID }
}

extension String {
  /// A property's name without the backticks that let it be a keyword (`` `default` ``), for
  /// the names the macros make from it (`_default`, `$default`), where backticks cannot go.
  var withoutBackticks: String {
    filter { $0 != "`" }
  }
}

extension StructDeclSyntax {
  /// Each property declared with one name, and that name as written, in declaration order.
  var singleNameProperties: [(variable: VariableDeclSyntax, name: String)] {
    memberBlock.members.compactMap { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.bindings.count == 1,
        let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier
      else { return nil }
      return (variable, name.trimmed.text)
    }
  }

  /// The name of each property declared with one name for which `include` holds.
  func propertyNames(where include: (VariableDeclSyntax) -> Bool) -> [String] {
    singleNameProperties.filter { include($0.variable) }.map(\.name)
  }
}
