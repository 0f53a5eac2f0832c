import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

#if !COMPOSABLE_MACROS_IN_PLUGIN
  import ComposableMacrosSupport
#endif

/// The compiler plugin behind the macros `ComposableCore` declares. The compiler finds a macro by
/// this module's name, so each one is named here and forwards to its implementation in
/// `ComposableMacrosSupport`, where the tests reach it.
@main
struct ComposableMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    CaseAccessorsMacro.self,
    ObservableStateMacro.self,
    ObservationStateIgnoredMacro.self,
    ObservationStateTrackedMacro.self,
    PresentsMacro.self,
    PresentsStorageMacro.self,
    ReducerCaseMarkerMacro.self,
    ReducerMacro.self,
    ViewActionMacro.self,
  ]
}

/// `@ReducerCaseEphemeral` and `@ReducerCaseIgnored`: markers that expand to nothing; `@Reducer`
/// reads them.
enum ReducerCaseMarkerMacro: PeerMacro {
  static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

// The implementation's types are found by the plugin module's name, so each is forwarded by a
// type of the same name here; compiled into this module (the sanitizer passes, Package.swift),
// they are found as they are.
#if !COMPOSABLE_MACROS_IN_PLUGIN
  enum ReducerMacro: ExtensionMacro, MemberAttributeMacro, MemberMacro {
    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingExtensionsOf type: some TypeSyntaxProtocol,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
      try ComposableMacrosSupport.ReducerMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
        in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingAttributesFor member: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
      try ComposableMacrosSupport.ReducerMacro.expansion(
        of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      providingMembersOf declaration: some DeclGroupSyntax,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
      try ComposableMacrosSupport.ReducerMacro.expansion(
        of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }
  }

  enum PresentsMacro: AccessorMacro, PeerMacro {
    static func expansion(
      of node: AttributeSyntax,
      providingAccessorsOf declaration: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
      try ComposableMacrosSupport.PresentsMacro.expansion(
        of: node, providingAccessorsOf: declaration, in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      providingPeersOf declaration: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
      try ComposableMacrosSupport.PresentsMacro.expansion(
        of: node, providingPeersOf: declaration, in: context)
    }
  }

  enum PresentsStorageMacro: ExtensionMacro {
    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingExtensionsOf type: some TypeSyntaxProtocol,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
      try ComposableMacrosSupport.PresentsStorageMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
        in: context)
    }
  }

  enum CaseAccessorsMacro: ExtensionMacro, MemberAttributeMacro {
    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingExtensionsOf type: some TypeSyntaxProtocol,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
      try ComposableMacrosSupport.CaseAccessorsMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
        in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingAttributesFor member: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
      try ComposableMacrosSupport.CaseAccessorsMacro.expansion(
        of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }
  }

  enum ObservableStateMacro: ExtensionMacro, MemberAttributeMacro, MemberMacro {
    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingExtensionsOf type: some TypeSyntaxProtocol,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
      try ComposableMacrosSupport.ObservableStateMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
        in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingAttributesFor member: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
      try ComposableMacrosSupport.ObservableStateMacro.expansion(
        of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      providingMembersOf declaration: some DeclGroupSyntax,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
      try ComposableMacrosSupport.ObservableStateMacro.expansion(
        of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }
  }

  enum ObservationStateTrackedMacro: AccessorMacro, PeerMacro {
    static func expansion(
      of node: AttributeSyntax,
      providingAccessorsOf declaration: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
      try ComposableMacrosSupport.ObservationStateTrackedMacro.expansion(
        of: node, providingAccessorsOf: declaration, in: context)
    }

    static func expansion(
      of node: AttributeSyntax,
      providingPeersOf declaration: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
      try ComposableMacrosSupport.ObservationStateTrackedMacro.expansion(
        of: node, providingPeersOf: declaration, in: context)
    }
  }

  /// `@ObservationStateIgnored`: a marker that expands to nothing; `@ObservableState` reads it.
  enum ObservationStateIgnoredMacro: PeerMacro {
    static func expansion(
      of node: AttributeSyntax,
      providingPeersOf declaration: some DeclSyntaxProtocol,
      in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
      []
    }
  }

  enum ViewActionMacro: ExtensionMacro {
    static func expansion(
      of node: AttributeSyntax,
      attachedTo declaration: some DeclGroupSyntax,
      providingExtensionsOf type: some TypeSyntaxProtocol,
      conformingTo protocols: [TypeSyntax],
      in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
      try ComposableMacrosSupport.ViewActionMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols,
        in: context)
    }
  }
#endif
