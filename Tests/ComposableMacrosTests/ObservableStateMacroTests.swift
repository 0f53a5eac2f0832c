import ComposableMacrosSupport
import MacroTesting
import Testing

@Suite(
  .macros(
    [
      "ObservableState": ObservableStateMacro.self,
      "ObservationStateTracked": ObservationStateTrackedMacro.self,
      "ObservationStateIgnored": ObservationStateIgnoredMacro.self,
      "Presents": PresentsMacro.self,
    ],
    record: .missing
  )
)
struct ObservableStateMacroTests {
  @Test func structProperties() {
    assertMacro {
      """
      @ObservableState
      public struct State: Equatable {
        public var count = 0
        var title: String
        let id: Int
        var doubled: Int { count * 2 }
        static var shared = 1
        @ObservationStateIgnored var scratch = ""
      }
      """
    } expansion: {
      #"""
      public struct State: Equatable {
        public var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.count)
            return _count
          }
          set {
            let _$registrar = _$observationRegistrar
            let _$changed = ComposableCore._$stateIdentity(_count)._changed(to: ComposableCore._$stateIdentity(newValue)) && ComposableCore._$differs(_count, newValue)
            _$registrar.mutate(&self, keyPath: \.count, changed: _$changed) {
              $0._count = newValue
            }
          }
          _modify {
            ComposableCore._$willModify(&_count)
            let oldIdentity = ComposableCore._$stateIdentity(_count)
            defer {
              let _$registrar = _$observationRegistrar
              _$registrar.didModify(&self, keyPath: \.count, from: oldIdentity, to: ComposableCore._$stateIdentity(_count))
            }
            yield &_count
          }
        }

        @ComposableCore.ObservationStateIgnored
        private var _count = 0
        var title: String {
          @storageRestrictions(initializes: _title)
          init(initialValue) {
            _title = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.title)
            return _title
          }
          set {
            let _$registrar = _$observationRegistrar
            let _$changed = ComposableCore._$stateIdentity(_title)._changed(to: ComposableCore._$stateIdentity(newValue)) && ComposableCore._$differs(_title, newValue)
            _$registrar.mutate(&self, keyPath: \.title, changed: _$changed) {
              $0._title = newValue
            }
          }
          _modify {
            ComposableCore._$willModify(&_title)
            let oldIdentity = ComposableCore._$stateIdentity(_title)
            defer {
              let _$registrar = _$observationRegistrar
              _$registrar.didModify(&self, keyPath: \.title, from: oldIdentity, to: ComposableCore._$stateIdentity(_title))
            }
            yield &_title
          }
        }

        @ComposableCore.ObservationStateIgnored
        private var _title: String
        let id: Int
        var doubled: Int { count * 2 }
        static var shared = 1
        var scratch = ""

        @ComposableCore.ObservationStateIgnored
        var _$observationRegistrar = ComposableCore.ObservationStateRegistrar()

        public var _$id: ComposableCore.ObservableStateID {
          _$observationRegistrar.id
        }

        public mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }

      extension State: ComposableCore.ObservableState, Observation.Observable {
      }

      extension State: Swift.CustomReflectable {
        public var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: ["count": _count as Any, "title": _title as Any, "id": id as Any, "scratch": scratch as Any],
            displayStyle: .struct
          )
        }
      }

      extension State: ComposableCore._TrackedStorage {
        public static func _$trackedProperty(_ keyPath: Swift.AnyKeyPath) -> ComposableCore._TrackedProperty? {
          if keyPath == \Self.count {
            return ComposableCore._TrackedProperty(
              storage: \Self._count,
              identity: {
                ComposableCore._$stateIdentity($0.pointee)._erased
              },
              announce: {
                let registrar = $0._$observationRegistrar
                registrar.didChange(&$0, keyPath: \.count)
              }
            )
          }
          if keyPath == \Self.title {
            return ComposableCore._TrackedProperty(
              storage: \Self._title,
              identity: {
                ComposableCore._$stateIdentity($0.pointee)._erased
              },
              announce: {
                let registrar = $0._$observationRegistrar
                registrar.didChange(&$0, keyPath: \.title)
              }
            )
          }
          return nil
        }
      }
      """#
    }
  }

  @Test func presentsInsideObservableState() {
    assertMacro {
      """
      @ObservableState
      struct State {
        @Presents var destination: Destination.State?
      }
      """
    } expansion: {
      #"""
      struct State {
        var destination: Destination.State? {
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.destination)
            return _destination.wrappedValue
          }
          set {
            let _$registrar = _$observationRegistrar
            let _$changed = ComposableCore._$stateIdentity(_destination.wrappedValue)._changed(to: ComposableCore._$stateIdentity(newValue))
            _$registrar.mutate(&self, keyPath: \.destination, changed: _$changed) {
              $0._destination.wrappedValue = newValue
            }
          }
          _modify {
            ComposableCore._$willModify(&_destination.wrappedValue)
            let oldIdentity = ComposableCore._$stateIdentity(_destination.wrappedValue)
            defer {
              let _$registrar = _$observationRegistrar
              _$registrar.didModify(&self, keyPath: \.destination, from: oldIdentity, to: ComposableCore._$stateIdentity(_destination.wrappedValue))
            }
            yield &_destination.wrappedValue
          }
        }

        var $destination: ComposableCore.PresentationState<Destination.State> {
          get {
            _$observationRegistrar.access(self, keyPath: \.destination)
            return _destination
          }
          set {
            let _$registrar = _$observationRegistrar
            let _$changed = ComposableCore._$stateIdentity(_destination)._changed(to: ComposableCore._$stateIdentity(newValue))
            _$registrar.mutate(&self, keyPath: \.destination, changed: _$changed) {
              $0._destination = newValue
            }
          }
          _modify {
            ComposableCore._$willModify(&_destination)
            let oldIdentity = ComposableCore._$stateIdentity(_destination)
            defer {
              let _$registrar = _$observationRegistrar
              _$registrar.didModify(&self, keyPath: \.destination, from: oldIdentity, to: ComposableCore._$stateIdentity(_destination))
            }
            yield &_destination
          }
        }

        @ComposableCore.ObservationStateIgnored
        private var _destination = ComposableCore.PresentationState<Destination.State>(wrappedValue: nil)

        @ComposableCore.ObservationStateIgnored
        var _$observationRegistrar = ComposableCore.ObservationStateRegistrar()

        var _$id: ComposableCore.ObservableStateID {
          _$observationRegistrar.id
        }

        mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }

      extension State: ComposableCore.ObservableState, Observation.Observable {
      }

      extension State: Swift.CustomReflectable {
        var customMirror: Swift.Mirror {
          Swift.Mirror(
            self,
            children: ["destination": _destination.wrappedValue as Any],
            displayStyle: .struct
          )
        }
      }

      extension State: ComposableCore._PresentationStorage {
        static func _$presentationStorage(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
          if keyPath == \Self.$destination || keyPath == \Self.destination {
            return \Self._destination
          }
          return nil
        }
        static func _$presentedCase<_$Child>(_ keyPath: Swift.AnyKeyPath, child: _$Child.Type) -> Any? {
          guard let keyPath = keyPath as? Swift.KeyPath<Self, _$Child?> else {
            return nil
          }
          if let reader = ComposableCore._presentedCaseReader(
            keyPath, through: \Self.destination, storage: \Self._destination
          ) {
            return reader
          }
          return nil
        }
      }

      extension State: ComposableCore._TrackedStorage {
        static func _$trackedProperty(_ keyPath: Swift.AnyKeyPath) -> ComposableCore._TrackedProperty? {
          if keyPath == \Self.$destination {
            return ComposableCore._TrackedProperty(
              storage: \Self._destination,
              identity: {
                ComposableCore._$stateIdentity($0.pointee)._erased
              },
              announce: {
                let registrar = $0._$observationRegistrar
                registrar.didChange(&$0, keyPath: \.destination)
              }
            )
          }
          return nil
        }
      }
      """#
    }
  }

  @Test func enumState() {
    assertMacro {
      """
      @ObservableState
      public enum State {
        case loading
        case loaded(Page.State)
        case failed(message: String, code: Int)
      }
      """
    } expansion: {
      """
      public enum State {
        case loading
        case loaded(Page.State)
        case failed(message: String, code: Int)

        public var _$id: ComposableCore.ObservableStateID {
          switch self {
          case .loading:
            return ComposableCore.ObservableStateID._$caseWithoutPayload._$tag(0)
          case .loaded(let state):
            return ComposableCore._$stateID(of: state)._$tag(1)
          case .failed:
            return ComposableCore.ObservableStateID()._$tag(2)
          }
        }

        public mutating func _$willModify() {
          switch self {
          case .loading:
            break
          case .loaded(var state):
            ComposableCore._$willModify(&state)
            self = .loaded(state)
          case .failed:
            break
          }
        }
      }

      extension State: ComposableCore.ObservableState, Observation.Observable {
      }
      """
    }
  }

  @Test func enumWithConditionalCases() {
    assertMacro {
      """
      @ObservableState
      enum State {
        case list(List.State)
        #if DEBUG
        case debug(Debug.State)
        #endif
      }
      """
    } expansion: {
      """
      enum State {
        case list(List.State)
        #if DEBUG
        case debug(Debug.State)
        #endif

        var _$id: ComposableCore.ObservableStateID {
          switch self {
          case .list(let state):
            return ComposableCore._$stateID(of: state)._$tag(0)
          #if DEBUG
          case .debug(let state):
            return ComposableCore._$stateID(of: state)._$tag(1)
          #endif
          }
        }

        mutating func _$willModify() {
          switch self {
          case .list(var state):
            ComposableCore._$willModify(&state)
            self = .list(state)
          #if DEBUG
          case .debug(var state):
            ComposableCore._$willModify(&state)
            self = .debug(state)
          #endif
          }
        }
      }

      extension State: ComposableCore.ObservableState, Observation.Observable {
      }
      """
    }
  }

  @Test func declaredConformanceIsNotRepeated() {
    assertMacro {
      """
      @ObservableState
      struct State: ObservableState {
        var count = 0
      }
      """
    } expansion: {
      #"""
      struct State: ObservableState {
        var count {
          @storageRestrictions(initializes: _count)
          init(initialValue) {
            _count = initialValue
          }
          get {
            _$observationRegistrar.access(self, keyPath: \.count)
            return _count
          }
          set {
            let _$registrar = _$observationRegistrar
            let _$changed = ComposableCore._$stateIdentity(_count)._changed(to: ComposableCore._$stateIdentity(newValue)) && ComposableCore._$differs(_count, newValue)
            _$registrar.mutate(&self, keyPath: \.count, changed: _$changed) {
              $0._count = newValue
            }
          }
          _modify {
            ComposableCore._$willModify(&_count)
            let oldIdentity = ComposableCore._$stateIdentity(_count)
            defer {
              let _$registrar = _$observationRegistrar
              _$registrar.didModify(&self, keyPath: \.count, from: oldIdentity, to: ComposableCore._$stateIdentity(_count))
            }
            yield &_count
          }
        }

        @ComposableCore.ObservationStateIgnored
        private var _count = 0

        @ComposableCore.ObservationStateIgnored
        var _$observationRegistrar = ComposableCore.ObservationStateRegistrar()

        var _$id: ComposableCore.ObservableStateID {
          _$observationRegistrar.id
        }

        mutating func _$willModify() {
          _$observationRegistrar._$willModify()
        }
      }
      """#
    }
  }

  @Test func aClassIsRejected() {
    assertMacro {
      """
      @ObservableState
      final class State {
        var count = 0
      }
      """
    } diagnostics: {
      """
      @ObservableState
      ┬───────────────
      ╰─ 🛑 '@ObservableState' applies to a struct or an enum: state is a value
      final class State {
        var count = 0
      }
      """
    }
  }
}

@Suite(.macros(["ViewAction": ViewActionMacro.self], record: .missing))
struct ViewActionMacroTests {
  @Test func screen() {
    assertMacro {
      """
      @ViewAction(for: SignUp.self)
      public struct SignUpScreen {
        let store: StoreOf<SignUp>
      }
      """
    } expansion: {
      """
      public struct SignUpScreen {
        let store: StoreOf<SignUp>
      }

      extension SignUpScreen: ComposableCore.ViewActionSending {
        public typealias StoreState = SignUp.State
        public typealias StoreAction = SignUp.Action
      }
      """
    }
  }

  @Test func screenWithoutStore() {
    assertMacro {
      """
      @ViewAction(for: SignUp.self)
      struct SignUpScreen {
        let model: StoreOf<SignUp>
      }
      """
    } diagnostics: {
      """
      @ViewAction(for: SignUp.self)
      struct SignUpScreen {
      ┬─────
      ╰─ 🛑 '@ViewAction' needs a 'store' property: 'let store: StoreOf<SignUp>'
        let model: StoreOf<SignUp>
      }
      """
    }
  }

  @Test func featureNotAType() {
    assertMacro {
      """
      @ViewAction(for: feature)
      struct SignUpScreen {
        let store: StoreOf<SignUp>
      }
      """
    } diagnostics: {
      """
      @ViewAction(for: feature)
      ┬────────────────────────
      ╰─ 🛑 '@ViewAction' names its feature as a type: '@ViewAction(for: Feature.self)'
      struct SignUpScreen {
        let store: StoreOf<SignUp>
      }
      """
    }
  }
}
