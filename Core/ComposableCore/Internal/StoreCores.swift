/// What a ``Store`` needs from whatever runs it: the root runtime, or a scope of another store.
@MainActor
@usableFromInline
package protocol StoreCore<State, Action>: AnyObject, Sendable {
  associatedtype State
  associatedtype Action
  var state: State { get }
  /// Calls `body` with the state where it is, for reading only (`inout` so that it is not
  /// copied): a child reads its part there, without a copy of the whole.
  func visitState(_ body: (inout State) -> Void)
  /// Tells `observer` after each outermost action has been processed, until removed, lending it
  /// the `State` the core has then (see ``StoreObservers``).
  func addObserver(_ observer: CoreObserver<State>) -> Int
  func removeObserver(_ id: Int)
  /// The store made with this core is gone: a core that observes its base for its store's sake
  /// can stop once nothing else observes it.
  func storeIsGone()
  /// The root's effects still running, oldest first, each with its id and a way to cancel it.
  func effectsInFlight() -> [(id: Int, cancel: @Sendable () -> Void)]
}

extension StoreCore {
  /// Calls `observer` after each outermost action has been processed, until removed, with the
  /// state the core has then.
  @usableFromInline
  package func addObserver(_ observer: @escaping @MainActor (State) -> Void) -> Int {
    addObserver(FunctionObserver(observer))
  }
}

/// What a core tells after each action, lending it its state for the call. A core that watches the one below it is one itself, so that telling it is a method call: as a
/// function capturing it, each call retained and released the function's context too, and went
/// through one more frame (about 60 instructions a level of presented stores).
@MainActor
@usableFromInline
package class CoreObserver<State> {
  // Inlinable: otherwise every subclass's implicit initialiser drew a spurious "infinite
  // recursion" warning from the compiler.
  @inlinable package init() {}

  /// Called with the state of the core observed, lent for the call.
  package func stateDidChange(_ state: State) {}
}

/// An observer that is a function.
@MainActor
package final class FunctionObserver<State>: CoreObserver<State> {
  let call: @MainActor (State) -> Void

  /// Observes with `call`.
  package init(_ call: @escaping @MainActor (State) -> Void) {
    self.call = call
  }

  override package func stateDidChange(_ state: State) {
    call(state)
  }
}

/// What the cores of child stores share: the base they read their state from, their own
/// observers, and their place on the base's list while someone needs them to watch it.
///
/// A core watching its base is itself the observer on the base's list, held by it, not weakly: a
/// weakly referenced object gives every retain and release of it the slow path (about 180
/// instructions a level after each action). That also keeps it alive for its observers once its
/// store is gone. A subclass says when it must watch (``observersChanged()``).
@MainActor
class ChildCore<ParentState, ParentAction, State, Action>: CoreObserver<ParentState> {
  let base: any StoreCore<ParentState, ParentAction>
  let toChild: ChildReader<ParentState, State>
  // Read after every action while watching, on the main actor like every access, and no access
  // to them lasts across a call out (a removed observer is let go after the list's access ends):
  // the dynamic exclusivity checks of a class's stored properties (about 75 instructions each,
  // two a level) would guard nothing.
  @exclusivity(unchecked) private final var observers = StoreObservers<State>()
  /// This core's id on its base's list, while it watches the base.
  @exclusivity(unchecked) private final var baseObserver: Int?

  init(base: any StoreCore<ParentState, ParentAction>, toChild: ChildReader<ParentState, State>) {
    self.base = base
    self.toChild = toChild
  }

  isolated deinit {
    if let baseObserver { base.removeObserver(baseObserver) }
  }

  @usableFromInline package final func effectsInFlight() -> [(
    id: Int, cancel: @Sendable () -> Void
  )] {
    base.effectsInFlight()
  }

  final var hasObservers: Bool { !observers.isEmpty }
  final var isWatching: Bool { baseObserver != nil }

  final func addObserver(_ observer: CoreObserver<State>) -> Int {
    defer { observersChanged() }
    return observers.add(observer)
  }

  final func removeObserver(_ id: Int) {
    let removed = observers.remove(id)
    observersChanged()
    withExtendedLifetime(removed) {}
  }

  /// After an observer came or went: watches the base exactly while this core has observers.
  func observersChanged() {
    watch(hasObservers)
  }

  /// Puts this core on its base's list of observers, or takes it off.
  final func watch(_ needed: Bool) {
    if needed, baseObserver == nil {
      baseObserver = base.addObserver(self)
    } else if !needed, let baseObserver {
      base.removeObserver(baseObserver)
      self.baseObserver = nil
    }
  }

  // Borrowed all the way, the parent's state and the child inside it (where the reader knows its
  // place): this runs unspecialised, where taking the child out as a `State?` looked up that
  // type's metadata and copied it through its value witnesses, about 800 instructions a level,
  // and a copy held here would make the child's next change copy its storage.
  /// Tells this core's observers of the child in the parent's state; `false` when there is none.
  final func tellObservers(_ parentState: ParentState) -> Bool {
    toChild.visit(parentState) {
      StoreObservers.tell($0, lone: observers.lone, list: observers)
    }
  }
}

/// The core of a child store: its state is read from the parent's. Its actions do not pass
/// through here: they go to the root through the send function its `Store` was made with.
///
/// Observers of a child hear of each action through its parent: while it has observers, the core
/// watches its base and works out the child's state from the base's once for all of them. A
/// chain of observed stores then costs one projection a level after each action, not a read of
/// each store's state from the root. It stops with the last of its observers.
@MainActor
final class ScopedCore<ParentState, ParentAction, State, Action>:
  ChildCore<ParentState, ParentAction, State, Action>, StoreCore
{
  // The child is copied alone from where its parent holds it. Read through the base's `state`,
  // each level up a chain of scoped stores copied its parent's whole state to take its part out
  // of it: ten levels down, a read cost about 7,100 instructions. The child lands in a buffer of
  // its own type, not an optional local: wrapping and unwrapping an optional of a type this
  // unspecialised code does not know cost about 70 instructions a read (1,645 against 1,574)
  // and about 30 % more time.
  var state: State {
    withUnsafeTemporaryAllocation(of: State.self, capacity: 1) { buffer in
      var found = false
      visitState { child in
        buffer.baseAddress!.initialize(to: child)
        found = true
      }
      // A scoped store's child is never absent: its reader either finds it or traps.
      precondition(found, "A scoped store found no state in its parent's")
      return buffer.baseAddress!.move()
    }
  }

  func visitState(_ body: (inout State) -> Void) {
    base.visitState { _ = toChild.visit($0, body) }
  }

  override func stateDidChange(_ parentState: ParentState) {
    _ = tellObservers(parentState)
  }

  /// Watches its base only while it has observers of its own, with or without a store.
  func storeIsGone() {}
}

/// The core of a store of optional child state (presented, optional, or a row): it shows the
/// child's current state while the child exists and, once it is gone, the state it last showed,
/// so a screen being dismissed can still draw it. It watches its base from the start, and the
/// first action after which the child is gone calls `whenGone`, where the parent store lets go of
/// the child's store.
///
/// The last state shown is kept when the store's state is read, as TCA keeps it, and not after
/// every action: a copy held across actions makes the child's next change copy its storage (its
/// presented children's boxes, its arrays), which a kept but unread store should not cost.
///
/// It stops watching when the child is gone, or once the store is gone and nothing observes the
/// core (a child's core, a `states` stream), so no cycle through the base's list outlives them.
@MainActor
final class TransientCore<ParentState, ParentAction, State, Action>:
  ChildCore<ParentState, ParentAction, State, Action>, StoreCore, TransientChild
{
  /// Whether the core watches its base from the start, for its store's sake, or only while it
  /// has observers (a row, whose collection's store watches for it).
  let watchesFromStart: Bool
  let whenGone: @MainActor (TransientCore) -> Void
  /// The state this store last showed: its child's when made, then as of each read.
  // Written by a read, on the main actor, before the read's body runs; nothing else reaches it
  // meanwhile, so the dynamic exclusivity check on each access would guard nothing.
  @exclusivity(unchecked) private var last: State
  private var hasStore = true
  private var isGone = false

  init(
    base: any StoreCore<ParentState, ParentAction>,
    initial: State,
    toChild: ChildReader<ParentState, State>,
    watchesFromStart: Bool,
    whenGone: @escaping @MainActor (TransientCore) -> Void
  ) {
    self.watchesFromStart = watchesFromStart
    self.whenGone = whenGone
    self.last = initial
    super.init(base: base, toChild: toChild)
    observersChanged()
  }

  var state: State {
    _ = visitChild { _ in }
    return last
  }

  func visitState(_ body: (inout State) -> Void) {
    if !visitChild(body) { body(&last) }
  }

  // The child is read in place in its parent's state and copied alone. Copying the parent's
  // whole state to take the child out of it retained each of the parent's references and ran
  // unspecialised: about 1,000 of the 2,500 instructions each row a redraw read cost.
  /// Calls `body` with the child where its parent holds it, keeping it as the last state shown;
  /// `false`, without calling it, once the child is gone.
  private func visitChild(_ body: (inout State) -> Void) -> Bool {
    // Once gone, the child a parent presents later is another one, with a store of its own.
    guard !isGone else { return false }
    var found = false
    base.visitState { parent in
      found = toChild.visit(parent) { child in
        last = child
        body(&child)
      }
    }
    if !found { childIsGone() }
    return found
  }

  func storeIsGone() {
    hasStore = false
    observersChanged()
  }

  /// Stops watching, keeps the last state shown for whoever still holds the store, and lets
  /// the parent store go of it. Once only.
  func childIsGone() {
    guard !isGone else { return }
    isGone = true
    observersChanged()
    whenGone(self)
  }

  /// Watches the base exactly while someone needs it: its store (when it watches from the
  /// start) or its own observers, and only until the child is gone.
  override func observersChanged() {
    watch(!isGone && (hasObservers || (watchesFromStart && hasStore)))
  }

  override func stateDidChange(_ parentState: ParentState) {
    guard isWatching else { return }
    if !tellObservers(parentState) { childIsGone() }
  }
}

/// A store of a child that can go away, as its parent's store reaches it when the child is
/// found gone from outside the store (see ``KeptRows``).
@MainActor
protocol TransientChild: AnyObject {
  func childIsGone()
}
