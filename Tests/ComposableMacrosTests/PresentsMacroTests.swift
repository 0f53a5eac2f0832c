import ComposableMacrosSupport
import MacroTesting
import Testing

@Suite(.macros([PresentsMacro.self], record: .missing))
struct PresentsMacroTests {
  @Test func basics() {
    assertMacro {
      """
      struct State {
        @Presents var destination: Destination.State?
      }
      """
    } expansion: {
      """
      struct State {
        var destination: Destination.State? {
          @storageRestrictions(initializes: $destination)
          init(initialValue) {
            $destination = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            $destination.wrappedValue
          }
          set {
            $destination.wrappedValue = newValue
          }
        }

        var $destination = ComposableCore.PresentationState<Destination.State>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func publicWithInitialValue() {
    assertMacro {
      """
      public struct State {
        @Presents public var alert: AlertState<Action.Alert>? = nil
      }
      """
    } expansion: {
      """
      public struct State {
        public var alert: AlertState<Action.Alert>? {
          @storageRestrictions(initializes: $alert)
          init(initialValue) {
            $alert = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            $alert.wrappedValue
          }
          set {
            $alert.wrappedValue = newValue
          }
        }

        public var $alert = ComposableCore.PresentationState<AlertState<Action.Alert>>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func optionalSpelledOut() {
    assertMacro {
      """
      struct State {
        @Presents var child: Optional<Child.State>
      }
      """
    } expansion: {
      """
      struct State {
        var child: Optional<Child.State> {
          @storageRestrictions(initializes: $child)
          init(initialValue) {
            $child = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            $child.wrappedValue
          }
          set {
            $child.wrappedValue = newValue
          }
        }

        var $child = ComposableCore.PresentationState<Child.State>(wrappedValue: nil)
      }
      """
    }
  }

  @Test func diagnostics() {
    assertMacro {
      """
      struct State {
        @Presents var count: Int
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var count: Int
                             ┬──
                             ╰─ 🛑 '@Presents' requires an optional type: nil means not presented
      }
      """
    }
    assertMacro {
      """
      struct State {
        @Presents let child: Child.State?
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents let child: Child.State?
                  ┬──
                  ╰─ 🛑 '@Presents' requires 'var'
      }
      """
    }
    assertMacro {
      """
      struct State {
        @Presents var child = Child.State()
      }
      """
    } diagnostics: {
      """
      struct State {
        @Presents var child = Child.State()
                      ┬────────────────────
                      ╰─ 🛑 '@Presents' needs the property's optional type written out, e.g. 'Destination.State?'
      }
      """
    }
  }

  @Test func storageOfPlainState() {
    assertMacro(["_PresentsStorage": PresentsStorageMacro.self]) {
      """
      @_PresentsStorage
      public struct State {
        @Presents var destination: Destination.State?
        @PresentationState var alert: AlertState<Action.Alert>?
        var count = 0
      }
      """
    } expansion: {
      #"""
      public struct State {
        @Presents var destination: Destination.State?
        @PresentationState var alert: AlertState<Action.Alert>?
        var count = 0
      }

      extension State: ComposableCore._PresentationStorage {
        public static func _$presentationStorage(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
          if keyPath == \Self.destination {
            return \Self.$destination
          }
          if keyPath == \Self.alert || keyPath == \Self.$alert {
            return \Self._alert
          }
          return nil
        }
        public static func _$presentedCase<_$Child>(_ keyPath: Swift.AnyKeyPath, child: _$Child.Type) -> Any? {
          guard let keyPath = keyPath as? Swift.KeyPath<Self, _$Child?> else {
            return nil
          }
          if let reader = ComposableCore._presentedCaseReader(
            keyPath, through: \Self.destination, storage: \Self.$destination
          ) {
            return reader
          }
          if let reader = ComposableCore._presentedCaseReader(
            keyPath, through: \Self.alert, storage: \Self._alert
          ) {
            return reader
          }
          return nil
        }
      }
      """#
    }
  }
}
