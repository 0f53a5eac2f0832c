import ConcurrencyExtras
import CustomDump

/// An action that sets one field of the state: what a form control sends when the user edits it.
///
/// Create one with `.set(\.email, "a@b.c")`; match one in a reducer with
/// `case .binding(\.email):` to react when that field changes.
public struct BindingAction<Root>: Equatable, @unchecked Sendable {
  // Unchecked: the key path and the value are immutable, and the value is required to be
  // Sendable when the action is made.

  /// The field the action sets.
  public let keyPath: PartialKeyPath<Root>
  let set: (inout Root) -> Void
  let value: any Sendable
  let isEqual: (BindingAction<Root>) -> Bool

  /// An action that sets the field at `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>,
    _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath,
      set: { $0[keyPath: keyPath] = value },
      value: value,
      isEqual: { other in other.keyPath == keyPath && (other.value as? Value) == value }
    )
  }

  /// Applies the change to `root`.
  public func apply(to root: inout Root) {
    set(&root)
  }

  /// Two binding actions are equal when they set the same field to equal values.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.isEqual(rhs)
  }

  /// Whether the action sets the field at `keyPath`: `case .binding(\.email):`.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }
}

extension BindingAction: CustomDumpReflectable {
  /// Dumps as the field and its new value.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: ["set": (keyPath: keyPath, value: value)],
      displayStyle: .enum
    )
  }
}

extension Case {
  /// The binding actions that set one field, as a case key path: `\.binding.email` in
  /// `store.send(\.binding.email, "a@b.c")` and `store.receive(\.binding.email)`.
  public subscript<Root, Member: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, Member>
  ) -> Case<Member> where Value == BindingAction<Root> {
    // A key path is an immutable object; the literal a caller writes is sendable.
    let keyPath = UncheckedSendable(keyPath)
    return Case<Member>(
      embed: { member in self._embed(BindingAction.set(keyPath.value, member)) },
      extract: { (root: Any) -> Member? in
        guard let binding = self._extract(from: root), binding.keyPath == keyPath.value else {
          return nil
        }
        return binding.value as? Member
      }
    )
  }
}

/// An action enum with a `binding(BindingAction<State>)` case, which `BindingReducer` applies.
public protocol BindableAction: SendableMetatype {
  /// The state the bindings change.
  associatedtype State

  /// Embeds a binding action: the enum's `binding` case.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action carries, if it is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// Extracts the `binding` case by reflecting on the enum.
  public var binding: BindingAction<State>? {
    AnyCasePath<Self, BindingAction<State>>(unsafe: { .binding($0) }).extract(from: self)
  }

  /// A binding action that sets `keyPath` to `value`: `.set(\.email, "a@b.c")`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}

/// Applies binding actions to state. Put it first in a body so the rest of the feature sees the
/// new value: `BindingReducer()`.
public struct BindingReducer<State, Action: BindableAction>: Reducer where Action.State == State {
  /// A reducer that applies every binding action.
  public init() {}

  /// Sets the field a binding action names; other actions pass untouched.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action.binding?.apply(to: &state)
    return .none
  }
}
