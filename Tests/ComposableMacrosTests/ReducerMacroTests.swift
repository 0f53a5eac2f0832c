import ComposableMacrosSupport
import MacroTesting
import Testing

// Expansions are recorded by swift-macro-testing when missing, then asserted on every run.
@Suite(.macros([ReducerMacro.self], record: .missing))
struct ReducerMacroTests {
  @Test func structBasics() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {
        }
        enum Action {
        }
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        struct State {
        }
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {
        }
        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func plainStateThatPresentsNamesItsStorage() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {
          @Presents var destination: Destination.State?
        }
        enum Action {
        }
      }
      @Reducer
      struct Observed {
        @ObservableState
        struct State {
          @Presents var destination: Destination.State?
        }
        enum Action {
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableCore._PresentsStorage
        struct State {
          @Presents var destination: Destination.State?
        }
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {
        }

        let body = ComposableCore.EmptyReducer<State, Action>()
      }
      struct Observed {
        @ObservableState
        struct State {
          @Presents var destination: Destination.State?
        }
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {
        }

        let body = ComposableCore.EmptyReducer<State, Action>()
      }

      extension Feature: ComposableCore.Reducer {
      }

      extension Observed: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func enumStateGetsCasePaths() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        enum State {
        }
        enum Action {
        }
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum State {
        }
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {
        }
        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func alreadyApplied() {
    assertMacro {
      """
      @Reducer
      struct Feature: Reducer, Sendable {
        @CasePathable
        @dynamicMemberLookup
        enum State {
        }
        @CasePathable
        @dynamicMemberLookup
        enum Action {
        }
        @ReducerBuilder<State, Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature: Reducer, Sendable {
        @CasePathable
        @dynamicMemberLookup
        @_CaseAccessors
        enum State {
        }
        @CasePathable
        @dynamicMemberLookup
        @_CaseAccessors
        enum Action {
        }
        @ReducerBuilder<State, Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    }
  }

  @Test func handWrittenCasePathable() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        enum Action: CasePathable {
          struct AllCasePaths {}
          static var allCasePaths: AllCasePaths { AllCasePaths() }
        }
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @dynamicMemberLookup
        enum Action: CasePathable {
          struct AllCasePaths {}
          static var allCasePaths: AllCasePaths { AllCasePaths() }
        }
        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func bodyTypesNameTheBuilder() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        var body: some Reducer<Int, Bool> { EmptyReducer() }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableCore.ReducerBuilder<Int, Bool>
        var body: some Reducer<Int, Bool> { EmptyReducer() }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
    assertMacro {
      """
      @Reducer
      struct Feature {
        var body: some ReducerOf<Base> { EmptyReducer() }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableCore.ReducerBuilder<Base.State, Base.Action>
        var body: some ReducerOf<Base> { EmptyReducer() }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func reduceMethodAlone() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
          .none
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
          .none
        }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func emptyReducerGetsDefaults() {
    assertMacro {
      """
      @Reducer
      struct Feature {
      }
      """
    } expansion: {
      """
      struct Feature {

          struct State: Codable, Equatable, Hashable, Sendable {
            init() {
            }
          }

          enum Action: Equatable, Hashable, Sendable {
          }

          let body = ComposableCore.EmptyReducer<State, Action>()
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
    assertMacro {
      """
      @available(macOS, unavailable)
      @Reducer
      public struct Feature {
      }
      """
    } expansion: {
      """
      @available(macOS, unavailable)
      public struct Feature {

          public struct State: Codable, Equatable, Hashable, Sendable {
            public init() {
            }
          }

          public enum Action: Equatable, Hashable, Sendable {
          }

          public let body = ComposableCore.EmptyReducer<State, Action>()
      }

      @available(macOS, unavailable) extension Feature: ComposableCore.Reducer {
      }
      """
    }
    assertMacro {
      """
      @Reducer
      struct Feature {
        typealias State = Int
        typealias Action = Bool
      }
      """
    } expansion: {
      """
      struct Feature {
        typealias State = Int
        typealias Action = Bool

        let body = ComposableCore.EmptyReducer<State, Action>()
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func genericAndNested() {
    assertMacro {
      """
      extension Outer {
        @Reducer
        package struct Wrapper<Child: Reducer> {
          package struct State {
            var child: Child.State
          }
          package enum Action {
            case child(Child.Action)
          }
          let child: Child
          package var body: some ReducerOf<Self> {
            Scope(state: \\.child, action: \\.child) { child }
          }
        }
      }
      """
    } expansion: {
      #"""
      extension Outer {
        package struct Wrapper<Child: Reducer> {
          package struct State {
            var child: Child.State
          }
          @CasePathable @dynamicMemberLookup @_CaseAccessors
          package enum Action {
            case child(Child.Action)
          }
          let child: Child
          @ComposableCore.ReducerBuilder<Self.State, Self.Action>
          package var body: some ReducerOf<Self> {
            Scope(state: \.child, action: \.child) { child }
          }
        }
      }

      extension Outer.Wrapper: ComposableCore.Reducer {
      }
      """#
    }
  }

  @Test func diagnosesReduceBesideBody() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          .none
        }
        var body: some ReducerOf<Self> {
          Reduce(reduce)
        }
      }
      """
    } diagnostics: {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
             ┬─────
             ╰─ 🛑 A 'reduce' method should not be defined in a reducer with a 'body'; it takes precedence and 'body' will never be invoked
          .none
        }
        var body: some ReducerOf<Self> {
          Reduce(reduce)
        }
      }
      """
    }
  }

  @Test func diagnosesClass() {
    assertMacro {
      """
      @Reducer
      class Feature {
      }
      """
    } diagnostics: {
      """
      @Reducer
      class Feature {
      ┬────
      ╰─ 🛑 '@Reducer' can only be applied to a struct or an enum; reducers are values
         ✏️ Replace 'class' with 'struct'
      }
      """
    } fixes: {
      """
      @Reducer
      struct Feature {
      }
      """
    } expansion: {
      """
      struct Feature {

          struct State: Codable, Equatable, Hashable, Sendable {
            init() {
            }
          }

          enum Action: Equatable, Hashable, Sendable {
          }

          let body = ComposableCore.EmptyReducer<State, Action>()
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func diagnosesWrongKindOfStateAndAction() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        class State {}
        struct Action {}
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } diagnostics: {
      """
      @Reducer
      struct Feature {
        class State {}
        ┬────
        ╰─ 🛑 'State' of a '@Reducer' must be a struct or an enum, not a class
           ✏️ Replace 'class' with 'struct'
        struct Action {}
        ┬─────
        ╰─ 🛑 'Action' of a '@Reducer' must be an enum, not a struct
           ✏️ Replace 'struct' with 'enum'
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } fixes: {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        struct State {}
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {}
        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func enumOfReducers() {
    assertMacro {
      """
      @Reducer
      enum Destination {
        case detail(Detail)
        case edit(Nested.Edit)
        case alert(AlertState<Alert>)
        case dialog(ConfirmationDialogState<Dialog>)
        case meeting(Meeting, syncUp: SyncUp)
        case placeholder

        enum Alert {
          case ok
        }
      }
      """
    } expansion: {
      #"""
      enum Destination {
        case detail(Detail)
        case edit(Nested.Edit)
        @ReducerCaseEphemeral
        case alert(AlertState<Alert>)
        @ReducerCaseEphemeral
        case dialog(ConfirmationDialogState<Dialog>)
        @ReducerCaseIgnored
        case meeting(Meeting, syncUp: SyncUp)
        case placeholder

        enum Alert {
          case ok
        }

        @CasePathable
        @dynamicMemberLookup
        @ComposableCore.ObservableState
        enum State: ComposableCore.CaseReducerState, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
          typealias StateReducer = Destination
          case detail(Detail.State)
          case edit(Nested.Edit.State)
          case alert(AlertState<Alert>)
          case dialog(ConfirmationDialogState<Dialog>)
          case meeting(Meeting, syncUp: SyncUp)
          case placeholder
          var _$isEphemeral: Bool {
            switch self {
            case .detail(let value):
              return ComposableCore._isEphemeral(value)
            case .edit(let value):
              return ComposableCore._isEphemeral(value)
            case .alert(let value):
              return ComposableCore._isEphemeral(value)
            case .dialog(let value):
              return ComposableCore._isEphemeral(value)
            case .meeting:
              return false
            case .placeholder:
              return false
            }
          }
          var _$presentationIdentity: ComposableCore._PresentationIdentity {
            switch self {
            case .detail(let value):
              return .case("detail") + ComposableCore._presentationIdentity(of: value)
            case .edit(let value):
              return .case("edit") + ComposableCore._presentationIdentity(of: value)
            case .alert(let value):
              return .case("alert") + ComposableCore._presentationIdentity(of: value)
            case .dialog(let value):
              return .case("dialog") + ComposableCore._presentationIdentity(of: value)
            case .meeting:
              return .case("meeting")
            case .placeholder:
              return .case("placeholder")
            }
          }
          static func _$casePath<_$Root, _$Child>(
            of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
          ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
            if ComposableCore._isPayload(of: Self.detail, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.detail)
            {
              return (\Self.Cases.detail as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            if ComposableCore._isPayload(of: Self.edit, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.edit)
            {
              return (\Self.Cases.edit as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            if ComposableCore._isPayload(of: Self.alert, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.alert)
            {
              return (\Self.Cases.alert as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            if ComposableCore._isPayload(of: Self.dialog, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.dialog)
            {
              return (\Self.Cases.dialog as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            return nil
          }
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.detail),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.detail
                  ]
                  : \Self.Cases.detail
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.detail,
              extract: {
                if case .detail(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.edit),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.edit
                  ]
                  : \Self.Cases.edit
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.edit,
              extract: {
                if case .edit(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.alert),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.alert
                  ]
                  : \Self.Cases.alert
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.alert,
              extract: {
                if case .alert(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.dialog),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.dialog
                  ]
                  : \Self.Cases.dialog
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.dialog,
              extract: {
                if case .dialog(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.allCasePaths.meeting),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.meeting
                  ]
                  : \Self.Cases.meeting
              }
            ) {
              return Self.allCasePaths.meeting
            }
            if matches(
              ComposableCore._caseValueType(Void.self),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.placeholder
                  ]
                  : \Self.Cases.placeholder
              }
            ) {
              return ComposableCore._CaseFunctions<Self, Void>(
              embed: { _ in
                .placeholder
              },
              extract: {
                if case .placeholder = $0 {
                  return ()
                } else {
                  return nil
                }
              }
            )
            }
            return nil
          }
        }

        @CasePathable
        @dynamicMemberLookup
        enum Action: ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case detail(Detail.Action)
          case edit(Nested.Edit.Action)
          case alert(Alert)
          case dialog(Dialog)
          case meeting(Swift.Never)
          case placeholder(Swift.Never)
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.detail),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.detail
                  ]
                  : \Self.Cases.detail
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.detail,
              extract: {
                if case .detail(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.edit),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.edit
                  ]
                  : \Self.Cases.edit
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.edit,
              extract: {
                if case .edit(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.alert),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.alert
                  ]
                  : \Self.Cases.alert
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.alert,
              extract: {
                if case .alert(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.dialog),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.dialog
                  ]
                  : \Self.Cases.dialog
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.dialog,
              extract: {
                if case .dialog(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.meeting),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.meeting
                  ]
                  : \Self.Cases.meeting
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.meeting,
              extract: {
                if case .meeting(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.placeholder),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.placeholder
                  ]
                  : \Self.Cases.placeholder
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.placeholder,
              extract: {
                if case .placeholder(let value) = $0 {
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

        typealias Body = ComposableCore.ReducerBuilder<Self.State, Self.Action>._Sequence<ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Detail>>, ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Nested.Edit>>>

        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        static var body: Body {
          ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Detail>>(state: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
            ComposableCore._BuiltReducer(Detail())
          }
          ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Nested.Edit>>(state: \Self.State.Cases.edit, action: \Self.Action.Cases.edit) {
            ComposableCore._BuiltReducer(Nested.Edit())
          }
        }

        @CasePaths.CasePathable
        enum CaseScope {
          case detail(ComposableCore.StoreOf<Detail>)
          case edit(ComposableCore.StoreOf<Nested.Edit>)
          case alert(AlertState<Alert>)
          case dialog(ConfirmationDialogState<Dialog>)
          case meeting(Meeting, syncUp: SyncUp)
          case placeholder
        }

        @MainActor
        static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .detail:
            return .detail(store.scope(state: \.detail, action: \.detail)!)
          case .edit:
            return .edit(store.scope(state: \.edit, action: \.edit)!)
          case let .alert(v0):
            return .alert(v0)
          case let .dialog(v0):
            return .dialog(v0)
          case let .meeting(v0, v1):
            return .meeting(v0, syncUp: v1)
          case .placeholder:
            return .placeholder
          }
        }
      }

      extension Destination: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """#
    }
  }

  @Test func emptyEnum() {
    assertMacro {
      """
      @Reducer
      public enum Destination {
      }
      """
    } expansion: {
      """
      public enum Destination {

          @CasePathable
          @dynamicMemberLookup
          @ComposableCore.ObservableState
          public enum State: ComposableCore.CaseReducerState, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
            public typealias StateReducer = Destination

            public var _$isEphemeral: Bool {
              false
            }
            public var _$presentationIdentity: ComposableCore._PresentationIdentity {
              .none
            }
            public static func _$caseAccess(
              where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
            ) -> Any? {

              return nil
            }
          }

          @CasePathable
          @dynamicMemberLookup
          public enum Action: ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable {

            public static func _$caseAccess(
              where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
            ) -> Any? {

              return nil
            }
          }

          public typealias Body = ComposableCore.EmptyReducer<Self.State, Self.Action>

          @ComposableCore.ReducerBuilder<Self.State, Self.Action>
          public static var body: Body {
              ComposableCore.EmptyReducer<Self.State, Self.Action>()
          }

          @CasePaths.CasePathable
          public enum CaseScope {

          }

          @MainActor
          public static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
            switch store.state {

            }
          }
      }

      extension Destination: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func enumCaseMarkers() {
    assertMacro {
      """
      @Reducer
      enum Path {
        case timeline(Timeline)
        case custom(Custom = Custom(mode: .compact))
        @ReducerCaseIgnored
        case note(Note)
        @ReducerCaseEphemeral
        case toast(ToastState)
      }
      """
    } expansion: {
      #"""
      enum Path {
        case timeline(Timeline)
        case custom(Custom = Custom(mode: .compact))
        @ReducerCaseIgnored
        case note(Note)
        @ReducerCaseEphemeral
        case toast(ToastState)

        @CasePathable
        @dynamicMemberLookup
        @ComposableCore.ObservableState
        enum State: ComposableCore.CaseReducerState, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
          typealias StateReducer = Path
          case timeline(Timeline.State)
          case custom(Custom.State)
          case note(Note)
          case toast(ToastState)
          var _$isEphemeral: Bool {
            switch self {
            case .timeline(let value):
              return ComposableCore._isEphemeral(value)
            case .custom(let value):
              return ComposableCore._isEphemeral(value)
            case .note(let value):
              return ComposableCore._isEphemeral(value)
            case .toast(let value):
              return ComposableCore._isEphemeral(value)
            }
          }
          var _$presentationIdentity: ComposableCore._PresentationIdentity {
            switch self {
            case .timeline(let value):
              return .case("timeline") + ComposableCore._presentationIdentity(of: value)
            case .custom(let value):
              return .case("custom") + ComposableCore._presentationIdentity(of: value)
            case .note(let value):
              return .case("note") + ComposableCore._presentationIdentity(of: value)
            case .toast(let value):
              return .case("toast") + ComposableCore._presentationIdentity(of: value)
            }
          }
          static func _$casePath<_$Root, _$Child>(
            of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
          ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
            if ComposableCore._isPayload(of: Self.timeline, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.timeline)
            {
              return (\Self.Cases.timeline as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            if ComposableCore._isPayload(of: Self.custom, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.custom)
            {
              return (\Self.Cases.custom as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            if ComposableCore._isPayload(of: Self.note, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.note)
            {
              return (\Self.Cases.note as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            if ComposableCore._isPayload(of: Self.toast, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.toast)
            {
              return (\Self.Cases.toast as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            return nil
          }
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.timeline),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.timeline
                  ]
                  : \Self.Cases.timeline
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.timeline,
              extract: {
                if case .timeline(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.custom),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.custom
                  ]
                  : \Self.Cases.custom
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.custom,
              extract: {
                if case .custom(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.note),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.note
                  ]
                  : \Self.Cases.note
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.note,
              extract: {
                if case .note(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.toast),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.toast
                  ]
                  : \Self.Cases.toast
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.toast,
              extract: {
                if case .toast(let value) = $0 {
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

        @CasePathable
        @dynamicMemberLookup
        enum Action: ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case timeline(Timeline.Action)
          case custom(Custom.Action)
          case note(Swift.Never)
          case toast(ToastState.Action)
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.timeline),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.timeline
                  ]
                  : \Self.Cases.timeline
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.timeline,
              extract: {
                if case .timeline(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.custom),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.custom
                  ]
                  : \Self.Cases.custom
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.custom,
              extract: {
                if case .custom(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.note),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.note
                  ]
                  : \Self.Cases.note
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.note,
              extract: {
                if case .note(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.toast),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.toast
                  ]
                  : \Self.Cases.toast
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.toast,
              extract: {
                if case .toast(let value) = $0 {
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

        typealias Body = ComposableCore.ReducerBuilder<Self.State, Self.Action>._Sequence<ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Timeline>>, ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Custom>>>

        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        static var body: Body {
          ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Timeline>>(state: \Self.State.Cases.timeline, action: \Self.Action.Cases.timeline) {
            ComposableCore._BuiltReducer(Timeline())
          }
          ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Custom>>(state: \Self.State.Cases.custom, action: \Self.Action.Cases.custom) {
            ComposableCore._BuiltReducer(Custom(mode: .compact))
          }
        }

        @CasePaths.CasePathable
        enum CaseScope {
          case timeline(ComposableCore.StoreOf<Timeline>)
          case custom(ComposableCore.StoreOf<Custom>)
          case note(Note)
          case toast(ToastState)
        }

        @MainActor
        static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .timeline:
            return .timeline(store.scope(state: \.timeline, action: \.timeline)!)
          case .custom:
            return .custom(store.scope(state: \.custom, action: \.custom)!)
          case let .note(v0):
            return .note(v0)
          case let .toast(v0):
            return .toast(v0)
          }
        }
      }

      extension Path: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """#
    }
  }

  @Test func enumConformances() {
    assertMacro {
      """
      @Reducer(state: .equatable, .sendable, action: .equatable, .hashable)
      package enum Path {
        case counter(Counter)
      }
      """
    } expansion: {
      #"""
      package enum Path {
        case counter(Counter)

        @CasePathable
        @dynamicMemberLookup
        @ComposableCore.ObservableState
        package enum State: ComposableCore.CaseReducerState, Equatable, Sendable, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
          package typealias StateReducer = Path
          case counter(Counter.State)
          package var _$isEphemeral: Bool {
            switch self {
            case .counter(let value):
              return ComposableCore._isEphemeral(value)
            }
          }
          package var _$presentationIdentity: ComposableCore._PresentationIdentity {
            switch self {
            case .counter(let value):
              return .case("counter") + ComposableCore._presentationIdentity(of: value)
            }
          }
          package static func _$casePath<_$Root, _$Child>(
            of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
          ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
            if ComposableCore._isPayload(of: Self.counter, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.counter)
            {
              return (\Self.Cases.counter as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            return nil
          }
          package static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.counter),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.counter
                  ]
                  : \Self.Cases.counter
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.counter,
              extract: {
                if case .counter(let value) = $0 {
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

        @CasePathable
        @dynamicMemberLookup
        package enum Action: Equatable, Hashable, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case counter(Counter.Action)
          package static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.counter),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.counter
                  ]
                  : \Self.Cases.counter
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.counter,
              extract: {
                if case .counter(let value) = $0 {
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

        package typealias Body = ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Counter>>

        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        package static var body: Body {
          ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Counter>>(state: \Self.State.Cases.counter, action: \Self.Action.Cases.counter) {
            ComposableCore._BuiltReducer(Counter())
          }
        }

        @CasePaths.CasePathable
        package enum CaseScope {
          case counter(ComposableCore.StoreOf<Counter>)
        }

        @MainActor
        package static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .counter:
            return .counter(store.scope(state: \.counter, action: \.counter)!)
          }
        }
      }

      extension Path: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """#
    }
  }

  @Test func structIgnoresConformanceArguments() {
    assertMacro {
      """
      @Reducer(state: .equatable)
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """
    } diagnostics: {
      """
      @Reducer(state: .equatable)
               ┬────────────────
               ╰─ ⚠️ Conformances in '@Reducer(state:action:)' apply to enum reducers; declare them on this reducer's 'State' and 'Action'
      struct Feature {
        struct State {}
        enum Action {}
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """
    } expansion: {
      """
      struct Feature {
        struct State {}
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {}
        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> { EmptyReducer() }
      }

      extension Feature: ComposableCore.Reducer {
      }
      """
    }
  }

  @Test func ifConfigAroundCases() {
    assertMacro {
      """
      @Reducer
      enum Destination {
        case detail(Detail)
        #if DEBUG
        case debug(Debug)
        case debugAlert(AlertState<DebugAlert>)
        #elseif os(Linux)
        case linux(Linux)
        #else
        case other
        #endif
      }
      """
    } expansion: {
      #"""
      enum Destination {
        case detail(Detail)
        #if DEBUG
        case debug(Debug)
        case debugAlert(AlertState<DebugAlert>)
        #elseif os(Linux)
        case linux(Linux)
        #else
        case other
        #endif

        @CasePathable
        @dynamicMemberLookup
        @ComposableCore.ObservableState
        enum State: ComposableCore.CaseReducerState, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
          typealias StateReducer = Destination
          case detail(Detail.State)
          #if DEBUG
            case debug(Debug.State)
            case debugAlert(AlertState<DebugAlert>)
          #elseif os(Linux)
            case linux(Linux.State)
          #else
            case other
          #endif
          var _$isEphemeral: Bool {
            switch self {
            case .detail(let value):
              return ComposableCore._isEphemeral(value)
            #if DEBUG
                case .debug(let value):
                  return ComposableCore._isEphemeral(value)
                case .debugAlert(let value):
                  return ComposableCore._isEphemeral(value)
            #elseif os(Linux)
                case .linux(let value):
                  return ComposableCore._isEphemeral(value)
            #else
                case .other:
                  return false
            #endif
            }
          }
          var _$presentationIdentity: ComposableCore._PresentationIdentity {
            switch self {
            case .detail(let value):
              return .case("detail") + ComposableCore._presentationIdentity(of: value)
            #if DEBUG
                case .debug(let value):
                  return .case("debug") + ComposableCore._presentationIdentity(of: value)
                case .debugAlert(let value):
                  return .case("debugAlert") + ComposableCore._presentationIdentity(of: value)
            #elseif os(Linux)
                case .linux(let value):
                  return .case("linux") + ComposableCore._presentationIdentity(of: value)
            #else
                case .other:
                  return .case("other")
            #endif
            }
          }
          static func _$casePath<_$Root, _$Child>(
            of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
          ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
            if ComposableCore._isPayload(of: Self.detail, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.detail)
            {
              return (\Self.Cases.detail as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            #if DEBUG
                if ComposableCore._isPayload(of: Self.debug, _$Child.self),
                  keyPath == presented.appending(path: \Self?.?.debug)
                {
                  return (\Self.Cases.debug as CasePaths.PartialCaseKeyPath<Self>)
                    as? CasePaths.CaseKeyPath<Self, _$Child>
                }
                if ComposableCore._isPayload(of: Self.debugAlert, _$Child.self),
                  keyPath == presented.appending(path: \Self?.?.debugAlert)
                {
                  return (\Self.Cases.debugAlert as CasePaths.PartialCaseKeyPath<Self>)
                    as? CasePaths.CaseKeyPath<Self, _$Child>
                }
            #elseif os(Linux)
                if ComposableCore._isPayload(of: Self.linux, _$Child.self),
                  keyPath == presented.appending(path: \Self?.?.linux)
                {
                  return (\Self.Cases.linux as CasePaths.PartialCaseKeyPath<Self>)
                    as? CasePaths.CaseKeyPath<Self, _$Child>
                }
            #else
            #endif
            return nil
          }
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.detail),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.detail
                  ]
                  : \Self.Cases.detail
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.detail,
              extract: {
                if case .detail(let value) = $0 {
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

        @CasePathable
        @dynamicMemberLookup
        enum Action: ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case detail(Detail.Action)
          #if DEBUG
            case debug(Debug.Action)
            case debugAlert(DebugAlert)
          #elseif os(Linux)
            case linux(Linux.Action)
          #else
            case other(Swift.Never)
          #endif
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.detail),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.detail
                  ]
                  : \Self.Cases.detail
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.detail,
              extract: {
                if case .detail(let value) = $0 {
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

        typealias Body = ComposableCore.Reduce<Self.State, Self.Action>

        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        static var body: Body {
          ComposableCore.Reduce(
            ComposableCore.CombineReducers {
              ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Detail>>(state: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
                ComposableCore._BuiltReducer(Detail())
              }
              #if DEBUG
              ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Debug>>(state: \Self.State.Cases.debug, action: \Self.Action.Cases.debug) {
                ComposableCore._BuiltReducer(Debug())
              }
              #elseif os(Linux)
              ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Linux>>(state: \Self.State.Cases.linux, action: \Self.Action.Cases.linux) {
                ComposableCore._BuiltReducer(Linux())
              }
              #else
              #endif
            }
          )
        }

        @CasePaths.CasePathable
        enum CaseScope {
          case detail(ComposableCore.StoreOf<Detail>)
          #if DEBUG
            case debug(ComposableCore.StoreOf<Debug>)
            case debugAlert(AlertState<DebugAlert>)
          #elseif os(Linux)
            case linux(ComposableCore.StoreOf<Linux>)
          #else
            case other
          #endif
        }

        @MainActor
        static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .detail:
            return .detail(store.scope(state: \.detail, action: \.detail)!)
          #if DEBUG
            case .debug:
              return .debug(store.scope(state: \.debug, action: \.debug)!)
            case let .debugAlert(v0):
              return .debugAlert(v0)
          #elseif os(Linux)
            case .linux:
              return .linux(store.scope(state: \.linux, action: \.linux)!)
          #else
            case .other:
              return .other
          #endif
          }
        }
      }

      extension Destination: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """#
    }
  }

  // A modular app's root enum writes its own `static var body`; the macro leaves it, and its
  // `Body`, to the enum, and marks it with the builder.
  @Test func enumDeclaringItsOwnBody() {
    assertMacro {
      #"""
      @Reducer
      enum Root {
        case home(Home)
        static var body: some ReducerOf<Self> {
          Reduce { _, _ in .none }
          Scope(state: \.home, action: \.home) { Home() }
        }
      }
      """#
    } expansion: {
      #"""
      enum Root {
        case home(Home)
        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        static var body: some ReducerOf<Self> {
          Reduce { _, _ in .none }
          Scope(state: \.home, action: \.home) { Home() }
        }

        @CasePathable
        @dynamicMemberLookup
        @ComposableCore.ObservableState
        enum State: ComposableCore.CaseReducerState, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
          typealias StateReducer = Root
          case home(Home.State)
          var _$isEphemeral: Bool {
            switch self {
            case .home(let value):
              return ComposableCore._isEphemeral(value)
            }
          }
          var _$presentationIdentity: ComposableCore._PresentationIdentity {
            switch self {
            case .home(let value):
              return .case("home") + ComposableCore._presentationIdentity(of: value)
            }
          }
          static func _$casePath<_$Root, _$Child>(
            of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
          ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
            if ComposableCore._isPayload(of: Self.home, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.home)
            {
              return (\Self.Cases.home as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            return nil
          }
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.home),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.home
                  ]
                  : \Self.Cases.home
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.home,
              extract: {
                if case .home(let value) = $0 {
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

        @CasePathable
        @dynamicMemberLookup
        enum Action: ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable {
          case home(Home.Action)
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.home),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.home
                  ]
                  : \Self.Cases.home
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.home,
              extract: {
                if case .home(let value) = $0 {
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

        @CasePaths.CasePathable
        enum CaseScope {
          case home(ComposableCore.StoreOf<Home>)
        }

        @MainActor
        static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .home:
            return .home(store.scope(state: \.home, action: \.home)!)
          }
        }
      }

      extension Root: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """#
    }
  }

  // An enum that writes its own `Action`, with a case that is not a reducer, keeps it: the macro
  // only adds case paths to it.
  @Test func enumDeclaringItsOwnAction() {
    assertMacro {
      """
      @Reducer
      enum Root {
        case home(Home)
        @ReducerCaseIgnored
        case loading(progress: Double)
        enum Action {
          case home(Home.Action)
          case finishedLoading
        }
      }
      """
    } expansion: {
      #"""
      enum Root {
        case home(Home)
        @ReducerCaseIgnored
        case loading(progress: Double)
        @CasePathable @dynamicMemberLookup @_CaseAccessors
        enum Action {
          case home(Home.Action)
          case finishedLoading
        }

        @CasePathable
        @dynamicMemberLookup
        @ComposableCore.ObservableState
        enum State: ComposableCore.CaseReducerState, ComposableCore._CaseAccessible, CasePaths.CasePathable, CasePaths.CasePathIterable, ComposableCore.ObservableState, Observation.Observable {
          typealias StateReducer = Root
          case home(Home.State)
          case loading(progress: Double)
          var _$isEphemeral: Bool {
            switch self {
            case .home(let value):
              return ComposableCore._isEphemeral(value)
            case .loading:
              return false
            }
          }
          var _$presentationIdentity: ComposableCore._PresentationIdentity {
            switch self {
            case .home(let value):
              return .case("home") + ComposableCore._presentationIdentity(of: value)
            case .loading:
              return .case("loading")
            }
          }
          static func _$casePath<_$Root, _$Child>(
            of keyPath: Swift.KeyPath<_$Root, _$Child?>, through presented: Swift.KeyPath<_$Root, Self?>
          ) -> CasePaths.CaseKeyPath<Self, _$Child>? {
            if ComposableCore._isPayload(of: Self.home, _$Child.self),
              keyPath == presented.appending(path: \Self?.?.home)
            {
              return (\Self.Cases.home as CasePaths.PartialCaseKeyPath<Self>)
                as? CasePaths.CaseKeyPath<Self, _$Child>
            }
            return nil
          }
          static func _$caseAccess(
            where matches: (Any.Type, (Swift.Bool) -> Swift.AnyKeyPath) -> Swift.Bool
          ) -> Any? {
            if matches(
              ComposableCore._caseValueType(Self.home),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.home
                  ]
                  : \Self.Cases.home
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.home,
              extract: {
                if case .home(let value) = $0 {
                  return value
                } else {
                  return nil
                }
              }
            )
            }
            if matches(
              ComposableCore._caseValueType(Self.loading(progress:)),
              {
                $0
                  ? \CasePaths.Case<ComposableCore.PresentationAction<Self>> [
                    dynamicMember: \Self.AllCasePaths.loading
                  ]
                  : \Self.Cases.loading
              }
            ) {
              return ComposableCore._CaseFunctions<Self, _>(
              embed: Self.loading(progress:),
              extract: {
                if case .loading(let value) = $0 {
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

        typealias Body = ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Home>>

        @ComposableCore.ReducerBuilder<Self.State, Self.Action>
        static var body: Body {
          ComposableCore.Scope<Self.State, Self.Action, ComposableCore._BuiltReducer<Home>>(state: \Self.State.Cases.home, action: \Self.Action.Cases.home) {
            ComposableCore._BuiltReducer(Home())
          }
        }

        @CasePaths.CasePathable
        enum CaseScope {
          case home(ComposableCore.StoreOf<Home>)
          case loading(progress: Double)
        }

        @MainActor
        static func scope(_ store: ComposableCore.Store<Self.State, Self.Action>) -> CaseScope {
          switch store.state {
          case .home:
            return .home(store.scope(state: \.home, action: \.home)!)
          case let .loading(v0):
            return .loading(progress: v0)
          }
        }
      }

      extension Root: ComposableCore.CaseReducer, ComposableCore.Reducer {
      }
      """#
    }
  }
}
