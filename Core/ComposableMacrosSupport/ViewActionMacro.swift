import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ViewAction(for: Feature.self)`: makes a screen that holds `store` a `ViewActionSending`, so
/// it can `send(.saveButtonTapped)` instead of `store.send(.view(.saveButtonTapped))`.
public enum ViewActionMacro {}

extension ViewActionMacro: ExtensionMacro {
  /// Adds the conformance, with the store's types taken from the feature named in `for:`.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard
      case .argumentList(let arguments) = node.arguments,
      let feature = arguments.first?.expression.as(MemberAccessExprSyntax.self),
      feature.declName.baseName.text == "self",
      let featureType = feature.base?.trimmedDescription
    else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroMessage(
            message: "'@ViewAction' names its feature as a type: '@ViewAction(for: Feature.self)'",
            id: "noFeature"
          )
        )
      )
      return []
    }
    let hasStore = declaration.memberBlock.members.contains { member in
      member.decl.as(VariableDeclSyntax.self)?.bindings.contains {
        $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "store"
      } ?? false
    }
    guard hasStore else {
      context.diagnose(
        Diagnostic(
          node: declaration.introducer,
          message: MacroMessage(
            message: "'@ViewAction' needs a 'store' property: 'let store: StoreOf<\(featureType)>'",
            id: "noStore"
          )
        )
      )
      return []
    }
    guard !declaration.inheritanceClause.contains("ViewActionSending") else { return [] }
    let decl: DeclSyntax = """
      extension \(type.trimmed): ComposableCore.ViewActionSending {
        \(raw: declaration.modifiers.accessPrefix)typealias StoreState = \(raw: featureType).State
        \(raw: declaration.modifiers.accessPrefix)typealias StoreAction = \(raw: featureType).Action
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}
