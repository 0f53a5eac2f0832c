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
        public static func _$caseAccess(
          where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
        ) -> Any? {
          if matches(
            ComposableCore._caseValueType(Self.child),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.child
                ]
                : \Self.Cases.child
            }
          ) {
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
          if matches(
            ComposableCore._caseValueType(Self.allCasePaths.pair),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.pair
                ]
                : \Self.Cases.pair
            }
          ) {
            return Self.allCasePaths.pair
          }
          if matches(
            ComposableCore._caseValueType(Void.self),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.plain
                ]
                : \Self.Cases.plain
            }
          ) {
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
          if matches(
            ComposableCore._caseValueType(Self.nested),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.nested
                ]
                : \Self.Cases.nested
            }
          ) {
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
          if matches(
            ComposableCore._caseValueType(Self.labeled(id:)),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.labeled
                ]
                : \Self.Cases.labeled
            }
          ) {
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
          if matches(
            ComposableCore._caseValueType(Self.unnamed),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.unnamed
                ]
                : \Self.Cases.unnamed
            }
          ) {
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

  @Test func nestedCasePathableEnumsGetAccessorsOfTheirOwn() {
    assertMacro {
      """
      @_CaseAccessors
      enum Action {
        case view(View)
        @CasePathable
        enum View {
          case tapped
        }
        enum Plain {
          case a
        }
      }
      """
    } expansion: {
      #"""
      enum Action {
        case view(View)
        @CasePathable
        @ComposableCore._NestedCaseAccessors
        enum View {
          case tapped
        }
        enum Plain {
          case a
        }
      }

      extension Action: ComposableCore._CaseAccessible {
        static func _$caseAccess(
          where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
        ) -> Any? {
          if matches(
            ComposableCore._caseValueType(Self.view),
            {
              $0
                ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                  dynamicMember: \Self.AllCasePaths.view
                ]
                : \Self.Cases.view
            }
          ) {
            return ComposableCore._CaseFunctions<Self, _>(
            embed: Self.view,
            extract: {
              if case .view(let value) = $0 {
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
