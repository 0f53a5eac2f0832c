import CasePaths

/// An enum whose cases reducer operators can reach through the case paths `@CasePathable`
/// generated, found from the case key path a feature wrote. `@Reducer` conforms the `State` and
/// `Action` enums it sees, through `@_CaseAccessors`.
public protocol _CaseAccessible {
  /// The accessor of the case at `keyPath` (a ``_CaseFunctions<Self, Value>``, or the
  /// `AnyCasePath<Self, Value>` `@CasePathable` generated), when `keyPath` names one case of this
  /// enum directly; `nil` for anything else (a path through several cases, `\.self`).
  static func _$caseAccess(_ keyPath: PartialCaseKeyPath<Self>) -> Any?
}

/// Reads and writes one case of an enum for a reducer operator or a scoped store, resolved once
/// from the case key path it was written with (`action: \.child`).
///
/// Applying a case key path costs thousands of instructions per call: the value is boxed, cast,
/// and the key path is applied into the enum's `AllCasePaths`, which builds a case path each
/// time. When the enum is ``_CaseAccessible`` and the key path names one of its cases, the
/// operator holds that case's generated embedding and extraction instead (a `switch` over the
/// enum); otherwise it keeps the key path. Either way only Swift's own semantics are involved.
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

  // Inlinable: made where the enum's type is known (an operator built in a specialised body), the
  // lookup of its generated accessor below is resolved statically, and the accessor's closures
  // are specialised too — for a generic enum, the difference between value-witness calls and a
  // plain `switch` on every action.
  @inlinable
  package init(_ keyPath: CaseKeyPath<Root, Value>) {
    // `action: \.self` scopes to the whole action, as `Scope` does for a child of the same type:
    // the value is the root, and the casts below are from a type to itself.
    if Root.self == Value.self,
      (keyPath as AnyKeyPath) == (\Case<Root>.self as AnyKeyPath)
    {
      self.embedFunction = { $0 as! Root }
      self.extractFunction = { $0 as? Value }
      self.isDirect = true
    } else if let accessible = Root.self as? any _CaseAccessible.Type,
      let direct = Self.direct(accessible, keyPath)
    {
      (self.embedFunction, self.extractFunction) = direct
      self.isDirect = true
    } else {
      let path = AnyCasePath(keyPath)
      self.embedFunction = { path.embed($0) }
      self.extractFunction = { path.extract(from: $0) }
      self.isDirect = false
    }
  }

  /// The whole value: what `\.self` resolves to, for code that knows the types are the same.
  package init() where Root == Value {
    self.embedFunction = { $0 }
    self.extractFunction = { $0 }
    self.isDirect = true
  }

  @inlinable
  static func direct<Enum: _CaseAccessible>(
    _: Enum.Type,
    _ keyPath: CaseKeyPath<Root, Value>
  ) -> (@Sendable (consuming Value) -> Root, @Sendable (Root) -> Value?)? {
    guard let keyPath = (keyPath as AnyKeyPath) as? PartialCaseKeyPath<Enum> else { return nil }
    switch Enum._$caseAccess(keyPath) {
    case let functions as _CaseFunctions<Root, Value>:
      return (functions.embed, functions.extract)
    case let path as AnyCasePath<Root, Value>:
      return ({ path.embed($0) }, { path.extract(from: $0) })
    default:
      return nil
    }
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

/// Whether `keyPath` leads to a value of the type `Value`: `@_CaseAccessors` asks before it
/// makes a case's own key path to compare, which costs far more than this.
@inlinable
public func _caseKeyPath<Root, Value>(
  _ keyPath: PartialCaseKeyPath<Root>, couldName _: Value.Type
) -> Bool {
  type(of: keyPath).valueType == Case<Value>.self
}

/// Whether `keyPath` leads to a value of the type `embed` takes, the case's constructor.
@inlinable
public func _caseKeyPath<Root, Value>(
  _ keyPath: PartialCaseKeyPath<Root>, couldName _: (Value) -> Root
) -> Bool {
  _caseKeyPath(keyPath, couldName: Value.self)
}

/// Whether `keyPath` leads to a value of the type the case path `@CasePathable` made extracts.
@inlinable
public func _caseKeyPath<Root, Value>(
  _ keyPath: PartialCaseKeyPath<Root>, couldName _: AnyCasePath<Root, Value>
) -> Bool {
  _caseKeyPath(keyPath, couldName: Value.self)
}
