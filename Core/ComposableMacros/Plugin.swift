import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin behind the macros `ComposableCore` declares.
@main
struct ComposableMacrosPlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    PresentsMacro.self,
    ReducerCaseEphemeralMacro.self,
    ReducerCaseIgnoredMacro.self,
    ReducerMacro.self,
  ]
}
