import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_CaseAccessors` on a `@CasePathable` enum: conforms it to `_CaseAccessible`, which hands
/// reducer operators and scoped stores a case's embedding and extraction, given the case key path
/// a feature wrote (`action: \.child`): two closures for a case with one value or none, the case
/// path `@CasePathable` generated otherwise. Operators look it up once, when they are built, and
/// from then on extract and embed through a `switch` instead of through the key path.
/// `@Reducer` attaches it to the `State` and `Action` enums it sees, and it attaches
/// `@_NestedCaseAccessors`, the same accessors, to the `@CasePathable` enums declared in them
/// (an action's `View`, whose binding case `BindingReducer(action: \.view)` reads on every
/// action, or its `Delegate`).
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
    let decl: DeclSyntax = """
      extension \(type.trimmed): ComposableCore._CaseAccessible {
      \(raw: caseAccessFunction(of: enumDecl.memberBlock.members, access: enumDecl.modifiers.accessPrefix))
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }

  /// `_CaseAccessible`'s requirement for an enum with these members: one comparison per case.
  static func caseAccessFunction(of members: MemberBlockItemListSyntax, access: String) -> String {
    let lookups = cases(of: members).map { enumCase in
      """
          if matches(
            ComposableCore._caseValueType(\(enumCase.valueTypeHint)),
            {
              $0
                ? \\CasePaths.Case<ComposableCore.PresentationAction<Self>>[
                  dynamicMember: \\Self.AllCasePaths.\(enumCase.name)
                ]
                : \\Self.Cases.\(enumCase.name)
            }
          ) {
            return \(enumCase.access)
          }
      """
    }
    return """
        \(access)static func _$caseAccess(
          where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
        ) -> Any? {
      \(lookups.joined(separator: "\n"))
          return nil
        }
      """
  }

  /// One case declared directly in the enum (a case inside `#if` is left to the key path), and
  /// how its accessor is written.
  struct Case {
    let name: String
    /// An expression that tells the type of the case's value (its constructor, its case path,
    /// `Void.self`), so that a key path to another type is passed over before the case's own key
    /// path is made: making a key path into a generic enum costs about 44,000 instructions, and
    /// a store resolves every operator's path when it is built.
    let valueTypeHint: String
    /// The case's embedding and extraction written as closures when its payload is one value or
    /// none, so an operator calls them directly; otherwise the case path `@CasePathable` made.
    let access: String
  }

  static func cases(of members: MemberBlockItemListSyntax) -> [Case] {
    members.flatMap { member -> [Case] in
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
      return caseDecl.elements.map { element in
        let name = element.name.text
        let parameters = element.parameterClause?.parameters ?? []
        let access: String
        let valueTypeHint: String
        switch parameters.count {
        case 0:
          valueTypeHint = "Void.self"
          access = """
            ComposableCore._CaseFunctions<Self, Void>(
                  embed: { _ in .\(name) },
                  extract: { if case .\(name) = $0 { return () } else { return nil } }
                )
            """
        case 1:
          // The case's constructor itself (`Self.child`, `Self.child(id:)`): a closure calling
          // it would draw a "will never be executed" warning in the feature's module for a
          // payload that cannot exist (`Never`, an empty enum).
          let label = parameters.first?.firstName.flatMap {
            $0.tokenKind == .wildcard ? nil : "(\($0.text):)"
          }
          let constructor = "Self.\(name)\(label ?? "")"
          valueTypeHint = constructor
          access = """
            ComposableCore._CaseFunctions<Self, _>(
                  embed: \(constructor),
                  extract: { if case .\(name)(let value) = $0 { return value } else { return nil } }
                )
            """
        default:
          valueTypeHint = "Self.allCasePaths.\(name)"
          access = valueTypeHint
        }
        return Case(name: name, valueTypeHint: valueTypeHint, access: access)
      }
    }
  }
}

extension CaseAccessorsMacro: MemberAttributeMacro {
  /// Gives each `@CasePathable` enum declared inside this one accessors too, through a macro of
  /// another name (a macro cannot attach itself), which goes no deeper. An enum without the
  /// attribute is left alone: a hand-written `CasePathable` conformance may not have a case path
  /// per case.
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard let nested = member.as(EnumDeclSyntax.self),
      nested.attributes.contains(named: "CasePathable"),
      !nested.attributes.contains(named: "_CaseAccessors"),
      !nested.attributes.contains(named: "_NestedCaseAccessors")
    else { return [] }
    return ["@ComposableCore._NestedCaseAccessors"]
  }
}
