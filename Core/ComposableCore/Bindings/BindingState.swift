import ConcurrencyExtras
import CustomDump

/// A field a view may write, as TCA 1.0–1.6 marked it: `@BindingState var email = ""`, set by
/// `.binding(.set(\.$email, "a@b.c"))` and matched by `case .binding(\.$email):`. New code writes
/// `@ObservableState` state and sets `\.email` itself.
@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
@propertyWrapper
@dynamicMemberLookup
public struct BindingState<Value> {
  /// The field's value.
  public var wrappedValue: Value

  /// Wraps a field's initial value.
  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// The wrapper itself, which a binding action's key path names: `\.$email`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// A field of the value, bindable in turn: `\.$profile.name`.
  public subscript<Member>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> BindingState<Member> {
    get { BindingState<Member>(wrappedValue: wrappedValue[keyPath: keyPath]) }
    set { wrappedValue[keyPath: keyPath] = newValue.wrappedValue }
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: Equatable where Value: Equatable {}
@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: Hashable where Value: Hashable {}
@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: Sendable where Value: Sendable {}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: Decodable where Value: Decodable {
  /// Decodes the value itself, as if the field were not wrapped.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try Value(from: decoder))
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: Encodable where Value: Encodable {
  /// Encodes the value itself, as if the field were not wrapped.
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: CustomDumpRepresentable {
  /// Dumps as the value, so diffs read like the feature's fields.
  public var customDumpValue: Any { wrappedValue }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingState: CustomReflectable {
  /// Reflects as the value.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingAction {
  /// An action that sets the `@BindingState` field at `keyPath` to `value`:
  /// `.set(\.$email, "a@b.c")`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, BindingState<Value>>,
    _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath,
      set: { $0[keyPath: keyPath].wrappedValue = value },
      value: value,
      isEqual: { other in other.keyPath == keyPath && (other.value as? Value) == value }
    )
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindableAction {
  /// A binding action that sets the `@BindingState` field at `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, BindingState<Value>>,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension Case {
  /// The binding actions that set one `@BindingState` field: `\.binding.$email`.
  public subscript<Root, Member: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, BindingState<Member>>
  ) -> Case<Member> where Value == BindingAction<Root> {
    bindingCase(keyPath) { .set(keyPath, $0) }
  }
}

/// A `@BindingState` field as a view state holds it, TCA 1.0–1.6's way: its value when the view
/// state was made, and through its projection a binding that sends the field's binding action.
/// `@BindingViewState var email: String`, filled with `$0.$email` in `observe:`.
@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
@propertyWrapper
@dynamicMemberLookup
public struct BindingViewState<Value> {
  let binding: Binding<Value>
  let initialValue: Value

  @MainActor
  init(binding: Binding<Value>) {
    self.binding = binding
    self.initialValue = binding.wrappedValue
  }

  /// The value when the view state was made; setting it sends the binding action.
  public var wrappedValue: Value {
    get { initialValue }
    nonmutating set {
      // A view state is made, read and written by its view store, on the main actor.
      let write = UncheckedSendable((binding, newValue))
      MainActor.assumeIsolated { write.value.0.wrappedValue = write.value.1 }
    }
  }

  /// The binding to the field.
  public var projectedValue: Binding<Value> { binding }

  /// A field of the value, bindable in turn.
  @MainActor
  public subscript<Member>(
    dynamicMember keyPath: WritableKeyPath<Value, Member>
  ) -> BindingViewState<Member> {
    BindingViewState<Member>(binding: binding[dynamicMember: keyPath])
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingViewState: Equatable where Value: Equatable {
  /// Equal when the values were equal when the view states were made.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.initialValue == rhs.initialValue
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingViewState: Hashable where Value: Hashable {
  /// Hashes the value the view state was made with.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(initialValue)
  }
}

@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
extension BindingViewState: CustomDumpRepresentable {
  /// Dumps as the value the view state was made with.
  public var customDumpValue: Any { initialValue }
}

/// The state a `ViewStore`'s `observe:` closure reads when its actions are bindable: the state's
/// fields as they are, and each `@BindingState` field, through `$`, as a ``BindingViewState``.
@available(*, deprecated, message: "Derive bindings from an '@ObservableState' store instead.")
@MainActor
@dynamicMemberLookup
public struct BindingViewStore<State> {
  let readState: @MainActor () -> State
  let sendBinding: @MainActor (BindingAction<State>) -> Void

  /// A field of the state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    readState()[keyPath: keyPath]
  }

  /// A `@BindingState` field, whose writes send its binding action: `$0.$email`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, BindingState<Value>>
  ) -> BindingViewState<Value> {
    let (readState, sendBinding) = (readState, sendBinding)
    return BindingViewState(
      binding: Binding(
        get: { readState()[keyPath: keyPath].wrappedValue },
        set: { sendBinding(.set(keyPath, $0)) }
      )
    )
  }
}
