import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_CaseAccessors` on a `@CasePathable` enum: conforms it to `_CaseAccessible`, which hands
/// reducer operators the typed case path `@CasePathable` generated for a case, given the case key
/// path a feature wrote (`action: \.child`). Operators look it up once, when they are built, and
/// from then on extract and embed through a `switch` instead of through the key path.
/// `@Reducer` attaches it to the `State` and `Action` enums it sees.
public enum CaseAccessorsMacro: ExtensionMacro {
  /// Adds the conformance with one comparison per case.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
      context.diagnose(
        Diagnostic(
          node: node,
          message: MacroMessage(message: "'@_CaseAccessors' applies to enums", id: "notEnum")
        )
      )
      return []
    }
    let access = enumDecl.modifiers.accessPrefix
    let names = caseNames(of: enumDecl.memberBlock.members)
    let lookups = names.map { name in
      """
          if keyPath == (\\Self.Cases.\(name) as CasePaths.PartialCaseKeyPath<Self>) {
            return Self.allCasePaths.\(name)
          }
      """
    }
    let decl: DeclSyntax = """
      extension \(type.trimmed): ComposableCore._CaseAccessible {
        \(raw: access)static func _$caseAccess(_ keyPath: CasePaths.PartialCaseKeyPath<Self>) -> Any? {
      \(raw: lookups.joined(separator: "\n"))
          return nil
        }
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }

  /// The names of the cases declared directly in the enum; a case inside `#if` is left to the
  /// key path.
  static func caseNames(of members: MemberBlockItemListSyntax) -> [String] {
    members.flatMap { member -> [String] in
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
      return caseDecl.elements.map(\.name.text)
    }
  }
}
