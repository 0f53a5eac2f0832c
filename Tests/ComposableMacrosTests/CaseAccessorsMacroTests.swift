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
        case labeled(id: Int), unnamed(_ count: Int)
      }
      """
    } expansion: {
      #"""
      public enum Action {
        case child(Child.Action)
        case pair(Int, label: String), plain
        indirect case nested(Action)
        case labeled(id: Int), unnamed(_ count: Int)
      }

      extension Action: ComposableCore._CaseAccessible {
        public static func _$caseAccess(_ keyPath: CasePaths.PartialCaseKeyPath<Self>) -> Any? {
          if ComposableCore._caseKeyPath(keyPath, couldName: Self.child),
            keyPath == (\Self.Cases.child as CasePaths.PartialCaseKeyPath<Self>)
          {
            return ComposableCore._CaseFunctions<Self, _>(
            embed: Self.child,
            extract: {
              if case .child(let value) = $0 {
                return value
              } else {
                return nil
              }
            }
          )
          }
          if ComposableCore._caseKeyPath(keyPath, couldName: Self.allCasePaths.pair),
            keyPath == (\Self.Cases.pair as CasePaths.PartialCaseKeyPath<Self>)
          {
            return Self.allCasePaths.pair
          }
          if ComposableCore._caseKeyPath(keyPath, couldName: Void.self),
            keyPath == (\Self.Cases.plain as CasePaths.PartialCaseKeyPath<Self>)
          {
            return ComposableCore._CaseFunctions<Self, Void>(
            embed: { _ in
              .plain
            },
            extract: {
              if case .plain = $0 {
                return ()
              } else {
                return nil
              }
            }
          )
          }
          if ComposableCore._caseKeyPath(keyPath, couldName: Self.nested),
            keyPath == (\Self.Cases.nested as CasePaths.PartialCaseKeyPath<Self>)
          {
            return ComposableCore._CaseFunctions<Self, _>(
            embed: Self.nested,
            extract: {
              if case .nested(let value) = $0 {
                return value
              } else {
                return nil
              }
            }
          )
          }
          if ComposableCore._caseKeyPath(keyPath, couldName: Self.labeled(id:)),
            keyPath == (\Self.Cases.labeled as CasePaths.PartialCaseKeyPath<Self>)
          {
            return ComposableCore._CaseFunctions<Self, _>(
            embed: Self.labeled(id:),
            extract: {
              if case .labeled(let value) = $0 {
                return value
              } else {
                return nil
              }
            }
          )
          }
          if ComposableCore._caseKeyPath(keyPath, couldName: Self.unnamed),
            keyPath == (\Self.Cases.unnamed as CasePaths.PartialCaseKeyPath<Self>)
          {
            return ComposableCore._CaseFunctions<Self, _>(
            embed: Self.unnamed,
            extract: {
              if case .unnamed(let value) = $0 {
                return value
              } else {
                return nil
              }
            }
          )
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
