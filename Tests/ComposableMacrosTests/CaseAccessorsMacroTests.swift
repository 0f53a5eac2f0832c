import ComposableMacrosSupport
import MacroTesting
import Testing

@Suite(.macros(["_CaseAccessors": CaseAccessorsMacro.self], record: .missing))
struct CaseAccessorsMacroTests {
  @Test func oneLookupPerCase() {
    assertMacro {
      """
      @_CaseAccessors
      public enum Action {
        case child(Child.Action)
        case pair(Int, label: String), plain
        indirect case nested(Action)
      }
      """
    } expansion: {
      #"""
      public enum Action {
        case child(Child.Action)
        case pair(Int, label: String), plain
        indirect case nested(Action)
      }

      extension Action: ComposableCore._CaseAccessible {
        public static func _$caseAccess(_ keyPath: CasePaths.PartialCaseKeyPath<Self>) -> Any? {
          if keyPath == (\Self.Cases.child as CasePaths.PartialCaseKeyPath<Self>) {
            return Self.allCasePaths.child
          }
          if keyPath == (\Self.Cases.pair as CasePaths.PartialCaseKeyPath<Self>) {
            return Self.allCasePaths.pair
          }
          if keyPath == (\Self.Cases.plain as CasePaths.PartialCaseKeyPath<Self>) {
            return Self.allCasePaths.plain
          }
          if keyPath == (\Self.Cases.nested as CasePaths.PartialCaseKeyPath<Self>) {
            return Self.allCasePaths.nested
          }
          return nil
        }
      }
      """#
    }
  }

  @Test func onlyEnums() {
    assertMacro {
      """
      @_CaseAccessors
      struct State {}
      """
    } diagnostics: {
      """
      @_CaseAccessors
      ┬──────────────
      ╰─ 🛑 '@_CaseAccessors' applies to enums
      struct State {}
      """
    }
  }
}
