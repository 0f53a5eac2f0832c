@_spi(SharedChangeTracking) import ComposableSharing
import CustomDump

/// How `_printChanges` reports each action: by default the action and a diff of the state.
public struct _ReducerPrinter<State, Action> {
  let printChange: (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void

  /// A printer that reports changes through a custom function.
  public init(
    printChange: @escaping (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void
  ) {
    self.printChange = printChange
  }

  /// Prints the action and a `−`/`+` diff of the state to standard output.
  public static var customDump: Self {
    customDump { print($0, terminator: "") }
  }

  /// Writes the action and a `−`/`+` diff of the state to `output`, one report per action.
  public static func customDump(to output: @escaping (String) -> Void) -> Self {
    Self { action, oldState, newState in
      var report = "received action:\n"
      CustomDump.customDump(action, to: &report, indent: 2)
      report += "\n"
      report += diff(oldState, newState).map { "\($0)\n" } ?? "  (No state changes)\n"
      output(report)
    }
  }

  /// Prints only the name of each action, for busy features.
  public static var actionLabels: Self {
    Self { action, _, _ in
      print("received action: \(ActionLabel.of(action))")
    }
  }
}

extension Reducer {
  /// Reports every action this reducer receives and how it changed the state; a debugging aid,
  /// not for shipped code.
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// The reducer `_printChanges()` returns.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  // Held as a store's tree holds a reducer: its body is built once (see `dependency`).
  let base: _BuiltReducer<Base>
  let printer: _ReducerPrinter<Base.State, Base.Action>?

  init(base: Base, printer: _ReducerPrinter<Base.State, Base.Action>?) {
    self.base = _BuiltReducer(base)
    self.printer = printer
  }

  /// Runs the base reducer and reports the change.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer else { return base.reduce(into: &state, action: action) }
    let oldState = state
    // Shared values in `oldState` are the same references as in `state`: the tracker keeps what
    // they were, and the diff shows it.
    let tracker = SharedChangeTracker(parent: SharedChangeTracker.current)
    let effects = SharedChangeTracker.$current.withValue(tracker) {
      base.reduce(into: &state, action: action)
    }
    SharedChangeTracker.$described.withValue(tracker) {
      printer.printChange(action, oldState, state)
    }
    return effects
  }
}

/// Names actions by their cases, for logs and analytics.
public enum ActionLabel {
  /// The cases of an action joined by dots, without payloads:
  /// `counter.factResponse.success`, `todos.element.toggleCompletionButtonTapped`.
  public static func of(_ action: Any) -> String {
    let mirror = Mirror(reflecting: action)
    guard mirror.displayStyle == .enum else { return "\(type(of: action))" }
    guard let child = mirror.children.first else { return "\(action)" }
    let name = child.label ?? "\(action)"
    guard let inner = nestedCase(in: child.value) else { return name }
    return "\(name).\(of(inner))"
  }

  /// The enum inside a payload: the payload itself, or the last enum of a tuple payload (the
  /// `action` of `.element(id:action:)`).
  private static func nestedCase(in payload: Any) -> Any? {
    let mirror = Mirror(reflecting: payload)
    switch mirror.displayStyle {
    case .enum:
      return payload
    case .tuple:
      return mirror.children.reversed().first {
        Mirror(reflecting: $0.value).displayStyle == .enum
      }?.value
    default:
      return nil
    }
  }
}
