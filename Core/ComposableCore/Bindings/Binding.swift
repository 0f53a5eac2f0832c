import ConcurrencyExtras
import CustomDump
import IssueReporting

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
  #if DEBUG
    /// Set on an action a store's binding sends: told when the action is applied.
    var unhandledCheck: UnhandledBindingCheck? = nil
  #endif

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
    #if DEBUG
      unhandledCheck?.handled.setValue(true)
    #endif
  }

  /// This action as a store's binding sends it: if no reducer applies it (the feature has no
  /// `BindingReducer`), an issue is reported once it is let go of. Debug builds only, as TCA's:
  /// the check costs two allocations a write, and a store's binding is written on every
  /// keystroke.
  func checkedForHandling<Action>(sentAs _: Action.Type) -> Self {
    #if DEBUG
      var action = self
      action.unhandledCheck = UnhandledBindingCheck(action: Action.self, value: value)
      return action
    #else
      return self
    #endif
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

#if DEBUG
  /// Reports a binding action a store sent that no reducer applied, when the action is let go of:
  /// by then every reducer that could have applied it has run, even when the action waited in the
  /// store's queue behind another.
  final class UnhandledBindingCheck: Sendable {
    let handled = LockIsolated(false)
    private let action: Any.Type
    private let value: any Sendable

    init(action: Any.Type, value: any Sendable) {
      self.action = action
      self.value = value
    }

    deinit {
      guard !handled.value else { return }
      var valueDump = ""
      customDump(value, to: &valueDump, maxDepth: 0)
      reportIssue(
        """
        A store's binding sent a binding action of '\(typeName(action))' setting \(valueDump), and \
        no reducer applied it: the state did not change.

        Add "BindingReducer()" to the feature's body (or "BindingReducer(action: \\.view)" when \
        bindings are view actions), before the reducers that react to bindings.
        """
      )
    }
  }
#endif

extension BindingAction: CustomDumpReflectable {
  /// Dumps as the field and its new value; a ``BindingCodable`` state's field by its name.
  public var customDumpMirror: Mirror {
    let field: Any =
      (Root.self as? any BindingCodable.Type)?._bindingName(for: keyPath)
      .map { FieldName(name: $0) } ?? keyPath
    return Mirror(
      self,
      children: ["set": (keyPath: field, value: value)],
      displayStyle: .enum
    )
  }
}

/// A field's key path as its name: `\.email`.
private struct FieldName: CustomDumpStringConvertible {
  let name: String
  var customDumpDescription: String { "\\.\(name)" }
}

extension Case {
  /// The binding actions that set one field, as a case key path: `\.binding.email` in
  /// `store.send(\.binding.email, "a@b.c")` and `store.receive(\.binding.email)`.
  public subscript<Root, Member: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, Member>
  ) -> Case<Member> where Value == BindingAction<Root> {
    bindingCase(keyPath) { .set(keyPath, $0) }
  }

  /// The binding actions that set the field at `keyPath`, which `set` makes.
  func bindingCase<Root, Member>(
    _ keyPath: PartialKeyPath<Root>,
    set: @escaping (Member) -> BindingAction<Root>
  ) -> Case<Member> where Value == BindingAction<Root> {
    // A key path is an immutable object, and `set` only captures the one a caller wrote.
    let (keyPath, set) = (UncheckedSendable(keyPath), UncheckedSendable(set))
    return Case<Member>(
      embed: { member in self._embed(set.value(member)) },
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

  /// Extracts the binding case with the case accessors `@Reducer` generates, when the enum has
  /// them: the case holding a `BindingAction<State>` that ``binding(_:)`` embeds into, found once
  /// by the type of its value and checked by embedding one. Otherwise with the case path
  /// ``binding`` makes by reflection, made once: made for each action, as the property does, it
  /// cost about 8,000 instructions an action.
  static func bindingExtraction() -> @Sendable (Self) -> BindingAction<State>? {
    guard let accessible = Self.self as? any _CaseAccessible.Type else {
      return reflectedBindingExtraction()
    }
    let probe = Self.binding(
      BindingAction(keyPath: \State.self, set: { _ in }, value: (), isEqual: { _ in false }))
    // Usually the first case of the type; a later one only when an earlier one holds a binding
    // action too.
    var skipped = 0
    while true {
      var seen = 0
      let access = accessible._$caseAccess(where: { value, _ in
        guard value == BindingAction<State>.self else { return false }
        seen += 1
        return seen > skipped
      })
      guard let functions = CaseAccess<Self, BindingAction<State>>.functions(access) else {
        return reflectedBindingExtraction()
      }
      if functions.extract(probe) != nil { return functions.extract }
      skipped += 1
    }
  }

  private static func reflectedBindingExtraction() -> @Sendable (Self) -> BindingAction<State>? {
    let path = AnyCasePath<Self, BindingAction<State>>(unsafe: { .binding($0) })
    return { path.extract(from: $0) }
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
/// new value: `BindingReducer()`, or `BindingReducer(action: \.view)` when bindings are sent as
/// view actions.
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  @usableFromInline
  let toViewAction: CaseAccess<Action, ViewAction>
  /// The view action's binding case, resolved once.
  @usableFromInline
  let toBinding: @Sendable (ViewAction) -> BindingAction<State>?

  /// A reducer that applies every binding action of a bindable `Action`.
  public init() where Action == ViewAction {
    toViewAction = CaseAccess()
    toBinding = ViewAction.bindingExtraction()
  }

  /// A reducer that applies the binding actions carried by the case at `action`:
  /// `BindingReducer(action: \.view)`.
  public init(action: CaseKeyPath<Action, ViewAction>) {
    toViewAction = CaseAccess(action)
    toBinding = ViewAction.bindingExtraction()
  }

  /// Sets the field a binding action names; other actions pass untouched.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if let view = toViewAction.extract(from: action), let binding = toBinding(view) {
      binding.apply(to: &state)
    }
    return .none
  }
}

/// A value read and written somewhere else, the way a text field or a toggle holds the state it
/// edits: SwiftUI's `Binding` for screens without SwiftUI. A binding into a store reads the
/// store's state and writes by sending a binding action.
@MainActor
@dynamicMemberLookup
public struct Binding<Value> {
  private let get: @MainActor () -> Value
  private let set: @MainActor (Value) -> Void

  /// A binding that reads with `get` and writes with `set`.
  public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
    self.get = get
    self.set = set
  }

  /// The current value; setting it writes through.
  public var wrappedValue: Value {
    get { get() }
    nonmutating set { set(newValue) }
  }

  /// A binding to a field of the value.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member>
  {
    Binding<Member>(
      get: { self.wrappedValue[keyPath: keyPath] },
      set: { member in
        var value = self.wrappedValue
        value[keyPath: keyPath] = member
        self.wrappedValue = value
      }
    )
  }
}

/// Gives bindings into an observable object through its projection, as SwiftUI's `@Bindable`:
/// `@Bindable var store: StoreOf<Feature>` makes `$store.email` a ``Binding``.
@MainActor
@propertyWrapper
@dynamicMemberLookup
public struct Bindable<Value: AnyObject> {
  /// The object.
  public var wrappedValue: Value

  /// Wraps `wrappedValue`.
  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// Wraps `object`.
  public init(_ object: Value) {
    self.wrappedValue = object
  }

  /// The wrapper itself, whose members are bindings: `$store.email`.
  public var projectedValue: Self { self }

  /// A binding to a writable member of the object.
  public subscript<Member>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member>
  ) -> Binding<Member> {
    let object = wrappedValue
    return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
  }
}

extension Store where State: ObservableState, Action: BindableAction, Action.State == State {
  /// A field of the state that writing sends a binding action for: `store.email = "a@b.c"`
  /// sends `.binding(.set(\.email, "a@b.c"))`, and `$store.email` is a binding to it.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { state[keyPath: keyPath] }
    set { send(.binding(.set(keyPath, newValue).checkedForHandling(sentAs: Action.self))) }
  }

  /// A binding to a field of the state, whose writes send binding actions.
  public func binding<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>
  ) -> Binding<Value> {
    Binding(get: { self.state[keyPath: keyPath] }, set: { self[dynamicMember: keyPath] = $0 })
  }
}

extension Store
where
  State: ObservableState,
  Action: ViewAction,
  Action.ViewAction: BindableAction,
  Action.ViewAction.State == State
{
  /// A field of the state that writing sends a binding view action for: `store.email = "x"`
  /// sends `.view(.binding(.set(\.email, "x")))`.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { state[keyPath: keyPath] }
    set {
      send(.view(.binding(.set(keyPath, newValue).checkedForHandling(sentAs: Action.self))))
    }
  }

  /// A binding to a field of the state, whose writes send binding view actions.
  public func binding<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>
  ) -> Binding<Value> {
    Binding(get: { self.state[keyPath: keyPath] }, set: { self[dynamicMember: keyPath] = $0 })
  }
}
