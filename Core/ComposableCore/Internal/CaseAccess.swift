import CasePaths

/// An enum whose cases reducer operators can reach through the case paths `@CasePathable`
/// generated, found from the case key path a feature wrote. `@Reducer` conforms the `State` and
/// `Action` enums it sees, through `@_CaseAccessors`.
public protocol _CaseAccessible {
  /// The accessor (a ``_CaseFunctions<Self, Value>``, or the `AnyCasePath<Self, Value>`
  /// `@CasePathable` generated) of the first case for which `matches` is true. `matches` is
  /// given the type of the case's value, and a function making the case's path: its key path
  /// (`\Self.Cases.detail`), or with `true`, the path to it from `PresentationAction<Self>`
  /// through `.presented`, as the second half of `\.destination.detail` is written.
  ///
  /// The type comes first: a case's path costs tens of thousands of instructions to make (the
  /// runtime looks its types up by name each time), so only a case of the type sought makes it.
  static func _$caseAccess(
    where matches: (_ value: Any.Type, _ path: (_ presented: Bool) -> AnyKeyPath) -> Bool
  ) -> Any?
}

/// Reads and writes one case of an enum for a reducer operator or a scoped store, resolved once
/// from the case key path it was written with (`action: \.child`).
///
/// Applying a case key path costs thousands of instructions per call: the value is boxed, cast,
/// and the key path is applied into the enum's `AllCasePaths`, which builds a case path each
/// time. When the enum is ``_CaseAccessible`` and the key path names one of its cases, or a case
/// of the enum (or presentation action) in one of them (`\.destination.detail`), the operator
/// holds those cases' generated embedding and extraction instead (a `switch` over each enum);
/// otherwise it keeps the key path. Either way only Swift's own semantics are involved.
///
/// A class, made once per operator or scoped store: a closure that captures one (a scoped
/// store's embedding, built in generic code) holds a reference, which needs no type metadata to
/// reach, where a captured generic struct made every call look its metadata up (about 500
/// instructions a level).
@usableFromInline
package final class CaseAccess<Root, Value>: Sendable {
  // Called on every action an operator sees and on every send of a scoped store: the two
  // functions themselves, not a case path around them, which added two calls to each use.
  // Embedding consumes its value, so that a scoped store moves the child's action into the
  // parent's case (see `Store.sendAction`).
  @usableFromInline let embedFunction: @Sendable (consuming Value) -> Root
  @usableFromInline let extractFunction: @Sendable (Root) -> Value?
  /// Whether the generated case path stands in for the key path (for tests and benchmarks).
  @usableFromInline package let isDirect: Bool
  /// For a case of a parent's state that a child runs on, the scope of the child's effects: the
  /// key path type-erased once, in an instance every effect of the child shares. Made per effect,
  /// it cost an allocation, and a comparison of key paths wherever the store matched it.
  @usableFromInline let effectScope: EffectScope?

  // Inlinable: made where the enum's type is known (an operator built in a specialised body), the
  // lookup of its generated accessor below is resolved statically, and the accessor's closures
  // are specialised too — for a generic enum, the difference between value-witness calls and a
  // plain `switch` on every action.
  @inlinable
  package init(_ keyPath: CaseKeyPath<Root, Value>, scopingEffects: Bool = false) {
    self.effectScope = scopingEffects ? EffectScope(location: AnyHashable(keyPath)) : nil
    // `action: \.self` scopes to the whole action, as `Scope` does for a child of the same type:
    // the value is the root, and the casts below are from a type to itself.
    if Root.self == Value.self,
      (keyPath as AnyKeyPath) == (\Case<Root>.self as AnyKeyPath)
    {
      self.embedFunction = { $0 as! Root }
      self.extractFunction = { $0 as? Value }
      self.isDirect = true
    } else if let accessible = Root.self as? any _CaseAccessible.Type,
      let found = Self.direct(accessible, keyPath) ?? Self.nested(accessible, keyPath)
    {
      (self.embedFunction, self.extractFunction) = found
      self.isDirect = true
    } else {
      let path = AnyCasePath(keyPath)
      self.embedFunction = { path.embed($0) }
      self.extractFunction = { path.extract(from: $0) }
      self.isDirect = false
    }
  }

  /// A case given by its two functions; its effects, if scoped, are scoped by `effectLocation`.
  /// `isDirect` when the functions are generated ones.
  @inlinable
  package init(
    embed: @escaping @Sendable (consuming Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?,
    effectLocation: AnyHashable?,
    isDirect: Bool = false
  ) {
    self.effectScope = effectLocation.map { EffectScope(location: $0) }
    self.embedFunction = embed
    self.extractFunction = extract
    self.isDirect = isDirect
  }

  /// The whole value: what `\.self` resolves to, for code that knows the types are the same.
  package init() where Root == Value {
    self.effectScope = nil
    self.embedFunction = { $0 }
    self.extractFunction = { $0 }
    self.isDirect = true
  }

  /// A case's embedding and extraction.
  @usableFromInline
  typealias Functions = (
    embed: @Sendable (consuming Value) -> Root, extract: @Sendable (Root) -> Value?
  )

  /// The case of `Enum` (`Root` itself) that `keyPath` names.
  @inlinable
  static func direct<Enum: _CaseAccessible>(
    _: Enum.Type,
    _ keyPath: CaseKeyPath<Root, Value>
  ) -> Functions? {
    let keyPath = keyPath as AnyKeyPath
    return functions(
      Enum._$caseAccess(where: { value, path in value == Value.self && path(false) == keyPath }))
  }

  /// The functions in what `_$caseAccess` found: its own closures, or the case path
  /// `@CasePathable` made for a case of several values.
  @inlinable
  static func functions(_ access: Any?) -> Functions? {
    switch access {
    case let functions as _CaseFunctions<Root, Value>:
      return (functions.embed, functions.extract)
    case let path as AnyCasePath<Root, Value>:
      return functions(of: path)
    default:
      return nil
    }
  }

  /// A case path's two functions.
  @inlinable
  static func functions(of path: AnyCasePath<Root, Value>) -> Functions {
    ({ path.embed($0) }, { path.extract(from: $0) })
  }

  /// A path through two cases, `\.child.grandchild`, or through a presented child's action,
  /// `\.destination.detail` (which reaches through `.presented`): the two cases' generated
  /// functions, one after the other. A key path cannot be taken apart, so each case of `Enum`
  /// whose value is an accessible enum (or the presentation action of one) is followed by each of
  /// that enum's cases holding a `Value`, and the path they make is compared with the one
  /// written. Made once, where a scoped store or an operator is; a send from a destination's
  /// store embedded its action through the key path, about 8,000 instructions each time.
  @usableFromInline
  static func nested<Enum: _CaseAccessible>(
    _: Enum.Type,
    _ keyPath: CaseKeyPath<Root, Value>
  ) -> Functions? {
    let keyPath = keyPath as AnyKeyPath
    var inner: Any?
    let outer = Enum._$caseAccess(where: { payload, path in
      inner = _nestedCase(in: payload, after: { path(false) }, completing: keyPath, to: Value.self)
      return inner != nil
    })
    guard let inner, let outer = outer as? any _ComposableCase<Root> else { return nil }
    return outer.followed(by: inner, to: Value.self)
  }

  /// The case's associated value, or `nil` when `root` is in another case.
  @inlinable
  package func extract(from root: Root) -> Value? {
    extractFunction(root)
  }

  /// The enum value in this case with `value` as its associated value.
  @inlinable
  package func embed(_ value: consuming Value) -> Root {
    embedFunction(value)
  }

  /// Changes the case's value where it is and returns what `body` returned, or returns `nil`
  /// without calling `body` when `root` is in another case.
  ///
  /// The root is moved out of its place and let go of once the value is extracted, so that the
  /// value is the only holder of its storage while it changes: extracted from a root left in
  /// place, it shared the root's storage, and changing a collection in it copied the whole
  /// collection. The place holds no value while `body` runs, which only sees the extracted
  /// value, and is filled again before this returns.
  @inlinable
  package func modify<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T? {
    withUnsafeMutablePointer(to: &root) { place in
      guard var value = take(from: place) else { return nil }
      let result = body(&value)
      place.initialize(to: embedFunction(value))
      return result
    }
  }

  /// Moves the root out of `place` and returns its case's value, the root gone; or, for another
  /// case, puts the root back and returns `nil`.
  @inlinable
  func take(from place: UnsafeMutablePointer<Root>) -> Value? {
    let root = place.move()
    guard let value = extractFunction(root) else {
      place.initialize(to: root)
      return nil
    }
    return value
  }
}

/// How `@_CaseAccessors` hands over one case whose payload is a single value (or none): its
/// embedding and extraction as plain closures.
public struct _CaseFunctions<Root, Value>: Sendable {
  @usableFromInline let embed: @Sendable (consuming Value) -> Root
  @usableFromInline let extract: @Sendable (Root) -> Value?

  /// Wraps the case's two functions.
  @inlinable
  public init(
    embed: @escaping @Sendable (consuming Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }
}

/// The type of the value of a case with no value (`Void.self`): what `@_CaseAccessors` hands
/// `_$caseAccess(where:)`'s test.
@inlinable
public func _caseValueType<Value>(_: Value.Type) -> Any.Type {
  Value.self
}

/// The type of the value of the case that `embed`, its constructor, makes.
@inlinable
public func _caseValueType<Root, Value>(_: (Value) -> Root) -> Any.Type {
  Value.self
}

/// The type of the value the case path `@CasePathable` made for a case of several values
/// extracts.
@inlinable
public func _caseValueType<Root, Value>(_: AnyCasePath<Root, Value>) -> Any.Type {
  Value.self
}

/// The functions, as a `CaseAccess<Payload, Leaf>.Functions`, of the case of `payload` (the
/// value of a case of another enum, whose path is `outer`) that completes `keyPath`: a case of
/// an accessible enum, or of the enum a presentation action presents, reached through
/// `.presented`.
// `outer` is made only for a payload that could hold the case, as it costs far more than the
// checks.
func _nestedCase<Leaf>(
  in payload: Any.Type, after outer: () -> AnyKeyPath, completing keyPath: AnyKeyPath,
  to _: Leaf.Type
) -> Any? {
  if let accessible = payload as? any _CaseAccessible.Type {
    return _innerCase(
      of: accessible, presented: false, after: outer(), completing: keyPath, to: Leaf.self)
  }
  if let presentation = payload as? any _PresentationActionProtocol.Type {
    return presentation._presentedCase(after: outer(), completing: keyPath, to: Leaf.self)
  }
  return nil
}

/// The functions, as a `CaseAccess<Inner, Leaf>.Functions`, of the case of `Inner` whose path
/// (from `PresentationAction<Inner>` if `presented`), appended to `outer`, is `keyPath`.
func _innerCase<Inner: _CaseAccessible, Leaf>(
  of _: Inner.Type, presented: Bool, after outer: AnyKeyPath, completing keyPath: AnyKeyPath,
  to _: Leaf.Type
) -> Any? {
  CaseAccess<Inner, Leaf>.functions(
    Inner._$caseAccess(where: { value, path in
      value == Leaf.self && outer.appending(path: path(presented)) == keyPath
    }))
}

/// Opens a presentation action's child action type for ``CaseAccess/nested(_:_:)``.
@usableFromInline
protocol _PresentationActionProtocol {
  /// The functions, as a `CaseAccess<Self, Leaf>.Functions`, of the case of the presented enum
  /// that completes `keyPath` after `outer`, reached through `.presented`.
  static func _presentedCase<Leaf>(
    after outer: AnyKeyPath, completing keyPath: AnyKeyPath, to _: Leaf.Type
  ) -> Any?
}

extension PresentationAction: _PresentationActionProtocol {
  @usableFromInline
  static func _presentedCase<Leaf>(
    after outer: AnyKeyPath, completing keyPath: AnyKeyPath, to _: Leaf.Type
  ) -> Any? {
    guard let presented = Action.self as? any _CaseAccessible.Type,
      let inner = _innerCase(
        of: presented, presented: true, after: outer, completing: keyPath, to: Leaf.self)
        as? CaseAccess<Action, Leaf>.Functions
    else { return nil }
    return _composed((Self.presenting, Self.presentedAction), inner)
  }

  /// `.presented`, as a function.
  static var presenting: @Sendable (consuming Action) -> Self { { .presented($0) } }

  /// The presented child's action, `nil` for `.dismiss`.
  static var presentedAction: @Sendable (Self) -> Action? {
    { if case .presented(let action) = $0 { action } else { nil } }
  }
}

/// Opens the value type of a case's functions, for ``CaseAccess/nested(_:_:)`` to put the
/// functions of a case of that value after them.
@usableFromInline
protocol _ComposableCase<Root> {
  associatedtype Root
  /// These functions followed by `inner`, a `CaseAccess<Value, Leaf>.Functions`.
  func followed<Leaf>(by inner: Any, to _: Leaf.Type) -> CaseAccess<Root, Leaf>.Functions?
}

extension _CaseFunctions: _ComposableCase {
  @usableFromInline
  func followed<Leaf>(by inner: Any, to _: Leaf.Type) -> CaseAccess<Root, Leaf>.Functions? {
    guard let inner = inner as? CaseAccess<Value, Leaf>.Functions else { return nil }
    return _composed((embed, extract), inner)
  }
}

/// One case's functions after another's.
func _composed<Root, Middle, Leaf>(
  _ outer: CaseAccess<Root, Middle>.Functions,
  _ inner: CaseAccess<Middle, Leaf>.Functions
) -> CaseAccess<Root, Leaf>.Functions {
  (
    { leaf in outer.embed(inner.embed(leaf)) },
    { root in outer.extract(root).flatMap(inner.extract) }
  )
}

/// A key path to the case path `@CasePathable` generated for one case in the enum's
/// `AllCasePaths`: what `action: \.child` resolves to where an operator takes one (see
/// `CasePathableForms.swift`).
public typealias _CasePathMember<Root: CasePathable, Value> = KeyPath<
  Root.AllCasePaths, AnyCasePath<Root, Value>
>

/// The case key path that names the same case as `path`, for what compares case key paths (a
/// scoped store's cache, an effect's scope). Equal to the literal for a single case.
@inlinable
package func _caseKeyPath<Root: CasePathable, Value>(
  _ path: _CasePathMember<Root, Value>
) -> CaseKeyPath<Root, Value> {
  \Case<Root>[dynamicMember: path]
}

extension CaseAccess where Root: CasePathable {
  /// The case whose case path `@CasePathable` generated `path` names, looked up once here: its
  /// functions take and return the enum itself, where a case key path boxes it in `Any` and
  /// looks the case path up again on every call (thousands of instructions a level for an enum
  /// that only `@CasePathable` made reachable). An accessible enum (`@Reducer`'s) is still
  /// reached through its accessors, which are specialised where a generic enum's case path is
  /// not.
  @inlinable
  package convenience init(_ path: _CasePathMember<Root, Value>) {
    let functions: Functions
    // The case key path is made only to find an accessible enum's case: making it costs more
    // than the rest of this, and a plain enum's case path needs none.
    if let accessible = Root.self as? any _CaseAccessible.Type,
      case let keyPath = _caseKeyPath(path),
      let found = Self.direct(accessible, keyPath) ?? Self.nested(accessible, keyPath)
    {
      functions = found
    } else {
      functions = Self.functions(of: Root.allCasePaths[keyPath: path])
    }
    self.init(
      embed: functions.embed, extract: functions.extract, effectLocation: nil, isDirect: true)
  }

}
