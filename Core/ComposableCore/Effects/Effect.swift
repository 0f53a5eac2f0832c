import CustomDump
import Foundation
import IssueReporting

/// A description of the work a reducer wants done after it has changed state: actions to feed
/// back synchronously, asynchronous operations, and how they compose and cancel.
///
/// Effects are values. A ``Store`` interprets them; nothing runs until the store does, which is
/// what makes them testable with `TestStore`.
public struct Effect<Action> {
  @usableFromInline
  indirect enum Operation {
    case none
    case send(Action)
    /// `dependencies` are the ones current where the effect was made, which its task runs with.
    case run(
      priority: TaskPriority?,
      dependencies: DependencyValues,
      operation: @Sendable (Send<Action>) async -> Void
    )
    case merge(EffectParts<Action>)
    case concatenate(EffectParts<Action>)
    case cancellable(id: EffectID, cancelInFlight: Bool, Effect<Action>)
    case cancel(id: EffectID)
    case scoped(EffectScope, Effect<Action>)
    case cancelScope(EffectScope)
    /// Cancels, in one pass, the effects of several children that went away together.
    case cancelScopes(Set<EffectScope>)
    case throttle(id: EffectID, Throttling, latest: Bool, Effect<Action>)
    /// Subscribed inside `send`, as a Combine publisher is.
    case subscribe(EffectSubscription<Action>)
  }

  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(operation: Operation) {
    self.operation = operation
  }
}

// Effects carry actions from a reducer to the store that runs it; both live on the main actor, and
// the only closures an effect holds are `@Sendable`. Marking the value unchecked lets features keep
// non-Sendable actions, as they can in TCA.
extension Effect: @unchecked Sendable {}

/// A convenience for the effect type of a reducer: `EffectOf<Feature>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

extension Effect {
  // Inlinable, as most reducers return it for most actions: otherwise each `return .none` is a
  // call that looks up the effect's generic metadata.
  /// An effect that does nothing and finishes immediately.
  @inlinable
  public static var none: Self { Self(operation: .none) }

  /// An effect that feeds `action` back into the store synchronously, before any asynchronous
  /// effect gets a chance to send.
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// An effect that runs an asynchronous operation which may send any number of actions back.
  ///
  /// Errors thrown by `operation` go to `handler`; without one they are reported as a runtime
  /// issue. Cancellation is never reported. The operation sees the dependencies that were current
  /// when the effect was created, so a reducer's overrides follow its effects.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    // The dependencies travel with the effect, and the store starts its task with them bound:
    // binding them inside the task instead (`withEscapedDependencies`) cost each effect two more
    // allocations for the deeper chain of asynchronous frames.
    Self(
      operation: .run(priority: priority, dependencies: DependencyValues._current) { send in
        do {
          try await operation(send)
        } catch is CancellationError {
          return
        } catch {
          guard let handler else {
            reportIssue(
              """
              An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error.

              \(String(customDumping: error).indenting(by: 4))

              All non-cancellation errors must be explicitly handled via the "catch" parameter \
              on "Effect.run", or via a "do" block.
              """,
              fileID: fileID,
              filePath: filePath,
              line: line,
              column: column
            )
            return
          }
          await handler(error, send)
        }
      }
    )
  }

  // Inlinable: reducers merge a few effects on every action, most of them `.none`, and that case
  // is answered where the action type is known, without building anything.
  /// Runs every effect at once; the result finishes when all of them have.
  @inlinable
  public static func merge(_ effects: Self...) -> Self {
    var onlyEffect: Self?
    for effect in effects {
      if effect.isNone { continue }
      guard onlyEffect == nil else { return .merge(effects as [Self]) }
      onlyEffect = effect
    }
    return onlyEffect ?? .none
  }

  // The array has a loop of its own: handed on as a sequence, it was read through the generic
  // iterator, which allocated for every effect. Inlinable, as everything that builds a merge or
  // a concatenation, so that it runs specialised for the feature's actions: run generic, it
  // looked up the metadata of the effect, the array and the buffer each time, and building and
  // releasing `.merge(.send(a), .send(b))` cost about 3,700 instructions, more than its sends.
  /// Runs every effect in the array at once; the result finishes when all of them have.
  @inlinable
  public static func merge(_ effects: [Self]) -> Self {
    flattening(effects, merging: true)
  }

  /// Runs every effect in the sequence at once; the result finishes when all of them have.
  @inlinable
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    flattening(Array(effects), merging: true)
  }

  // Inlinable: a builder's sequence merges two effects on every action, usually one or both
  // `.none`, which is then decided where the types are known, without a call.
  /// Runs this effect and `other` at once.
  @inlinable
  public func merge(with other: Self) -> Self {
    if other.isNone { return self }
    if isNone { return other }
    return Self.merged(self, other)
  }

  // Out of line on purpose: with the array built inline, every builder sequence that inlines
  // `merge(with:)` grows, and the optimiser inlines less around it (ten `Scope` levels measured
  // 2,523 -> 2,732 instructions a send, for a branch those sends never take). Inlinable all the
  // same, so that it is specialised.
  @inlinable @inline(never)
  static func merged(_ first: Self, _ second: Self) -> Self {
    first.appending(second, merging: true) ?? .merge([first, second])
  }

  /// Runs the effects one after another: each starts when the previous one has finished.
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    .concatenate(effects)
  }

  /// Runs the effects of the array one after another.
  @inlinable
  public static func concatenate(_ effects: [Self]) -> Self {
    flattening(effects, merging: false)
  }

  /// Runs the effects of the sequence one after another.
  @inlinable
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    flattening(Array(effects), merging: false)
  }

  /// The effects merged (or concatenated): none, the only one that does something, or all of
  /// them, a nested merge (concatenation) by its parts. Counted first, so the parts are written
  /// once, into their own buffer.
  @inlinable @inline(never)
  static func flattening(_ effects: [Self], merging: Bool) -> Self {
    if let folded = folding(effects, merging: merging) { return folded }
    var count = 0
    var last = Self.none
    for effect in effects where !effect.isNone {
      count += effect.parts(merging: merging)?.count ?? 1
      last = effect
    }
    // One part is an effect that is not of this kind: a merge always has two parts or more.
    guard count > 1 else { return last }
    // Two parts are two effects neither of which is of this kind: a first one that was is
    // folded onto above, and a later one would bring two parts or more.
    if count == 2 {
      var first: Self?
      for effect in effects where !effect.isNone {
        if let first { return Self(parts: EffectParts(first, effect), merging: merging) }
        first = effect
      }
    }
    let parts = EffectParts<Action>.Fixed.make(count: count)
    for effect in effects where !effect.isNone {
      if let nested = effect.parts(merging: merging) {
        for part in nested { parts.append(part) }
      } else {
        parts.append(effect)
      }
    }
    return Self(parts: EffectParts(parts), merging: merging)
  }

  /// The effects added to the first one that does something, when that one is a merge
  /// (concatenation) itself, as `merge(with:)` adds: `effect = .merge(effect, next)` in a loop
  /// then adds in place, where copying the parts so far each time took time quadratic in their
  /// number. `nil` when the first is not of that kind.
  @inlinable
  static func folding(_ effects: [Self], merging: Bool) -> Self? {
    guard let first = effects.firstIndex(where: { !$0.isNone }),
      effects[first].parts(merging: merging) != nil
    else { return nil }
    var folded = effects[first]
    for effect in effects[(first + 1)...] where !effect.isNone {
      folded = folded.appending(effect, merging: merging)!
    }
    return folded
  }

  /// This merge's (concatenation's) parts followed by `other`, or by its parts if it is one too:
  /// written in place when this is the last value made from its fold. `nil` when this effect is
  /// not of that kind.
  @inlinable
  func appending(_ other: Self, merging: Bool) -> Self? {
    guard let parts = parts(merging: merging) else { return nil }
    let combined =
      if let more = other.parts(merging: merging) {
        parts.appending(contentsOf: more)
      } else {
        parts.appending(contentsOf: CollectionOfOne(other))
      }
    return Self(parts: combined, merging: merging)
  }

  /// The parts, if this effect is a merge (`merging`) or a concatenation (otherwise).
  @inlinable
  func parts(merging: Bool) -> EffectParts<Action>? {
    switch operation {
    case .merge(let parts) where merging, .concatenate(let parts) where !merging: parts
    default: nil
    }
  }

  @inlinable
  init(parts: EffectParts<Action>, merging: Bool) {
    self.init(operation: merging ? .merge(parts) : .concatenate(parts))
  }

  /// Runs `other` after this effect has finished.
  @inlinable
  public func concatenate(with other: Self) -> Self {
    if other.isNone { return self }
    // As `merged` does for a merge folded one effect at a time.
    return appending(other, merging: false) ?? .concatenate([self, other])
  }

  // Inlinable, with `.none` answered here: a parent maps its child's effect on every child
  // action, and most are `.none` (about 30 instructions a level through the generic body).
  /// Transforms every action this effect sends, typically to embed a child's action in its
  /// parent's.
  @inlinable
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    if isNone { return .none }
    return mapOperation(transform)
  }

  @usableFromInline
  func mapOperation<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let priority, let dependencies, let operation):
      return Effect<T>(
        operation: .run(priority: priority, dependencies: dependencies) { send in
          await operation(Send { action in send(transform(action)) })
        }
      )
    case .merge(let effects):
      return Effect<T>(operation: .merge(EffectParts(effects) { $0.map(transform) }))
    case .concatenate(let effects):
      return Effect<T>(
        operation: .concatenate(EffectParts(effects) { $0.map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<T>(
        operation: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform))
      )
    case .cancel(let id):
      return Effect<T>(operation: .cancel(id: id))
    case .scoped(let scope, let effect):
      return Effect<T>(operation: .scoped(scope, effect.map(transform)))
    case .cancelScope(let scope):
      return Effect<T>(operation: .cancelScope(scope))
    case .cancelScopes(let scopes):
      return Effect<T>(operation: .cancelScopes(scopes))
    case .throttle(let id, let throttling, let latest, let effect):
      return Effect<T>(
        operation: .throttle(id: id, throttling, latest: latest, effect.map(transform)))
    case .subscribe(let subscription):
      return Effect<T>(operation: .subscribe(subscription.map(transform)))
    }
  }

  /// Whether the effect does nothing, the answer to most actions.
  @inlinable
  var isNone: Bool {
    if case .none = operation { return true }
    return false
  }

  /// Whether the effect can still be running once the store has finished the action that
  /// returned it. A lone `.send`, the commonest child effect, is answered inline.
  @inlinable
  var canOutliveItsAction: Bool {
    if case .send = operation { return false }
    return !isSynchronous
  }

  /// Whether the store can finish this effect without suspending: it only sends, cancels or
  /// does nothing.
  @usableFromInline
  var isSynchronous: Bool {
    switch operation {
    case .none, .send, .cancel, .cancelScope, .cancelScopes:
      return true
    case .run, .throttle, .subscribe:
      return false
    case .merge(let effects), .concatenate(let effects):
      return effects.allSatisfy(\.isSynchronous)
    case .cancellable(_, _, let effect), .scoped(_, let effect):
      return effect.isSynchronous
    }
  }

  // An effect that only sends is left as it is: the scope qualifies cancellation ids and tracks
  // running work, and such an effect has neither, so the scope (for a presented child, its
  // identity) is never made. Inlinable, so that answer costs no call and no closure.
  /// Marks the effects of a child reducer with the place the child lives at, so that its
  /// cancellation ids do not collide with a sibling's and its effects can be cancelled together.
  @inlinable
  func scoped(to scope: @autoclosure () -> EffectScope) -> Self {
    if sendsOnly { return self }
    return Self(operation: .scoped(scope(), self))
  }

  // Out of line, as only a child action that returned an effect gets here, but inlinable, so that
  // it runs specialised: the operators' `reduce`s that call it are inlined into the bodies
  // holding them, and making them larger made the optimiser inline less around every send.
  /// A child's effect as its parent runs it: every action embedded by `access`, and all of it
  /// scoped to the child's place, `scope`. A lone `.send`, the commonest, is embedded in place,
  /// without the closure `map` would allocate, and needs no scope.
  @inlinable @inline(never)
  func embedded<Parent>(
    by access: CaseAccess<Parent, Action>,
    in scope: EffectScope
  ) -> Effect<Parent> {
    embedded(by: access) { scope }
  }

  // The scope read from the route only when one is needed: copied out for every child effect,
  // it cost about 160 instructions a level on each `.send`.
  /// The same, for a child at a key path of its parent's state, scoped by its route's scope.
  @inlinable @inline(never)
  func embedded<Parent, Root, Value>(
    by access: CaseAccess<Parent, Action>,
    at route: StateRoute<Root, Value>
  ) -> Effect<Parent> {
    embedded(by: access) { route.effectScope }
  }

  /// What both do, inlined into each.
  @inlinable @inline(__always)
  func embedded<Parent>(
    by access: CaseAccess<Parent, Action>,
    scope: () -> EffectScope
  ) -> Effect<Parent> {
    if case .send(let action) = operation {
      return Effect<Parent>(operation: .send(access.embed(action)))
    }
    return map { access.embed($0) }.scoped(to: scope())
  }

  /// Whether the effect does nothing but send actions, if anything: it starts no work and names
  /// no cancellation id, so where in the reducer tree it came from makes no difference to it.
  @inlinable
  var sendsOnly: Bool {
    switch operation {
    case .none, .send:
      return true
    case .merge(let effects), .concatenate(let effects):
      // A closure, not `\.sendsOnly`: a key path into a generic type is built, with allocations,
      // each time its literal is evaluated in code that is not specialised.
      return effects.allSatisfy { $0.sendsOnly }
    case .run, .cancellable, .cancel, .scoped, .cancelScope, .cancelScopes, .throttle, .subscribe:
      return false
    }
  }

  /// An effect that cancels every in-flight effect of the child living at `scope`.
  @usableFromInline
  static func cancelScope(_ scope: EffectScope) -> Self {
    Self(operation: .cancelScope(scope))
  }

  /// An effect that cancels every in-flight effect of the children living at `scopes`, which
  /// are siblings.
  ///
  /// One effect, not a merge of `cancelScope`s: the store then passes over its running effects
  /// once, where it passed once per child, so a list of 10,000 rows cleared took time in the
  /// square of that.
  @usableFromInline
  static func cancelScopes(_ scopes: some Collection<EffectScope>) -> Self {
    switch scopes.count {
    case 0: return .none
    case 1: return .cancelScope(scopes.first!)
    default: return Self(operation: .cancelScopes(Set(scopes)))
    }
  }
}

/// One step of the path from a store's root reducer to a child feature instance: the key path of
/// the child's state, and for elements of a collection the element's id.
///
/// Cancellation ids are qualified by the path of scopes that led to the reducer that used them.
///
/// A class, equal by value: a child's effect is copied into its context's path and out of it
/// several times on its way to the store, and copying a key path and an id, both type-erased,
/// cost about 200 instructions each time. `ifLet` and a `Scope` of a stored property make theirs
/// once.
@usableFromInline
final class EffectScope: Hashable, @unchecked Sendable {
  // Key paths and ids are immutable values; they are only hashed and compared.
  @usableFromInline let location: AnyHashable
  let id: EffectID?

  @usableFromInline
  init(location: AnyHashable, id: EffectID? = nil) {
    self.location = location
    self.id = id
  }

  @usableFromInline
  static func == (lhs: EffectScope, rhs: EffectScope) -> Bool {
    lhs === rhs || (lhs.location == rhs.location && lhs.id == rhs.id)
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(location)
    hasher.combine(id)
  }
}

/// The scope made last for the effects of a `forEach` row, kept with the row's id: the same
/// row's next effects, the common case of a row acted on again, share it instead of allocating
/// another. Kept per operator instance, on the store's actor. Scopes are equal by value, so one
/// made again is only an allocation more.
@usableFromInline
final class LastElementScope<ID: Hashable> {
  @usableFromInline @exclusivity(unchecked) var last: (id: ID, scope: EffectScope)?

  @usableFromInline
  init() {}

  // Inlinable, to be specialised for the id's type: generic, each use of the optional pair
  // looked up its metadata, more than the allocation it saves.
  /// The scope of the element with `id` of the collection at `location`.
  @inlinable
  func scope(for id: ID, at location: @autoclosure () -> AnyHashable) -> EffectScope {
    if let last, last.id == id { return last.scope }
    let scope = EffectScope(location: location(), id: EffectID(id))
    last = (id, scope)
    return scope
  }
}

extension String {
  /// The text with every non-empty line indented, for multi-line values in messages.
  package func indenting(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indentation + $0 }
      .joined(separator: "\n")
  }
}
