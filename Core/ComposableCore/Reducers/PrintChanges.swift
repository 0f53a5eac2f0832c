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
      print("received action: \(debugCaseOutput(action))")
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
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>?

  /// Runs the base reducer and reports the change.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer else { return base.reduce(into: &state, action: action) }
    let oldState = state
    let effects = base.reduce(into: &state, action: action)
    printer.printChange(action, oldState, state)
    return effects
  }
}

/// The case name of an action, with nested cases joined by dots: `counter.incrementTapped`.
func debugCaseOutput(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return String(describing: value) }
  guard let child = mirror.children.first else {
    return "\(type(of: value)).\(value)"
  }
  let label = child.label ?? ""
  let nested = Mirror(reflecting: child.value)
  if nested.displayStyle == .enum {
    return "\(type(of: value)).\(label)(\(debugCaseOutput(child.value)))"
  }
  if nested.displayStyle == .tuple, let inner = Array(nested.children).last,
    Mirror(reflecting: inner.value).displayStyle == .enum
  {
    return "\(type(of: value)).\(label)(\(debugCaseOutput(inner.value)))"
  }
  return "\(type(of: value)).\(label)"
}
