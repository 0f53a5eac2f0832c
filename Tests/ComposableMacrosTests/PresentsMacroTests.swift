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
          @storageRestrictions(initializes: _destination)
          init(initialValue) {
            _destination = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _destination.wrappedValue
          }
          set {
            _destination.wrappedValue = newValue
          }
        }

        var $destination: ComposableCore.PresentationState<Destination.State> {
          get {
            _destination
          }
          set {
            _destination = newValue
          }
        }

        private var _destination = ComposableCore.PresentationState<Destination.State>(wrappedValue: nil)
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
          @storageRestrictions(initializes: _alert)
          init(initialValue) {
            _alert = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _alert.wrappedValue
          }
          set {
            _alert.wrappedValue = newValue
          }
        }

        public var $alert: ComposableCore.PresentationState<AlertState<Action.Alert>> {
          get {
            _alert
          }
          set {
            _alert = newValue
          }
        }

        private var _alert = ComposableCore.PresentationState<AlertState<Action.Alert>>(wrappedValue: nil)
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
          @storageRestrictions(initializes: _child)
          init(initialValue) {
            _child = ComposableCore.PresentationState(wrappedValue: initialValue)
          }
          get {
            _child.wrappedValue
          }
          set {
            _child.wrappedValue = newValue
          }
        }

        var $child: ComposableCore.PresentationState<Child.State> {
          get {
            _child
          }
          set {
            _child = newValue
          }
        }

        private var _child = ComposableCore.PresentationState<Child.State>(wrappedValue: nil)
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
}
