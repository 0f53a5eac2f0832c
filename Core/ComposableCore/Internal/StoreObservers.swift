/// How a child store finds its child in its parent's state: as a value, for reading the store's
/// state, and in place, for the work after every action; `nil` and `false` when the child (an
/// optional one) is not there.
@usableFromInline
struct ChildReader<Parent, Child> {
  let read: (Parent) -> Child?
  /// Calls its body with the child, where the parent holds it when the reader knows its place
  /// (`inout` so that it is not copied; the body only reads it), and returns `true`; returns
  /// `false` when there is no child.
  let visit: (Parent, (inout Child) -> Void) -> Bool

  @usableFromInline
  init(
    read: @escaping (Parent) -> Child?, visit: @escaping (Parent, (inout Child) -> Void) -> Bool
  ) {
    self.read = read
    self.visit = visit
  }

  // Inlinable, so that a reader made where the types are known is specialised for them.
  /// Finds the child by reading it out of the parent.
  @inlinable
  init(read: @escaping (Parent) -> Child?) {
    self.init(read: read) { parent, body in
      guard var child = read(parent) else { return false }
      body(&child)
      return true
    }
  }
}

/// Checks, after each action, whether a store's observable state was replaced by another value,
/// and tells the store when it was.
///
/// An object of its own rather than a function capturing the store weakly: that function loaded
/// the weak reference, retained and released the store through its side table, and re-abstracted
/// the identity function on every call, about 500 instructions a read store after each action,
/// paid by every row a list screen draws. Here only a replacement reaches the store.
@MainActor
final class IdentityObserver<State: ObservableState>: CoreObserver<State> {
  // Read and written only here, after each action, on the main actor: the dynamic exclusivity
  // check a class's stored property pays on each access would guard nothing.
  @exclusivity(unchecked) private var last: ObservableStateID
  private let replaced: @MainActor () -> Void

  init(of state: State, replaced: @escaping @MainActor () -> Void) {
    self.last = state._$id
    self.replaced = replaced
  }

  override func stateDidChange(_ state: State) {
    let current = state._$id
    guard current != last else { return }
    last = current
    replaced()
  }
}

/// The observers of a store's core.
///
/// Each observer is handed the state borrowed for the call (``CoreObserver``), so that no copy of
/// it outlives the call to make a later change copy the state's storage. Observers are told in
/// the order they were added, as Combine's subscribers of a subject are (TCA's
/// `testStorePublisherSubscriptionOrder`); a list's thousand row stores still come and go in
/// constant time each (amortised).
@MainActor
@usableFromInline
package struct StoreObservers<State> {
  // Almost every core has a single observer (the core of the child store below it, or a screen),
  // so one is kept on its own, and a box exists only for more. Both are references, so the copy
  // `notify` tells costs a retain for a lone observer: copying and walking a dictionary cost
  // about 56 instructions more a core after each action. (An optional function, or an optional
  // struct holding one, in its place was copied through the runtime's value witnesses, and so
  // was an optional existential: 150 to 280 instructions more.) The single one is only ever the
  // first added of those present, so that telling it first keeps the order.
  private var single: CoreObserver<State>?
  private var singleID = 0
  private var others: Others?
  private var nextID = 0

  /// The observers beyond the single one, in the order added, changed only when this list is the
  /// box's only holder. A removed one leaves a hole (`nil`), closed once holes are half the list.
  private final class Others {
    var observers: [CoreObserver<State>?] = []
    /// Where each observer is in `observers`, by id; the holes are the places no id has.
    var positions: [Int: Int] = [:]

    init() {}

    init(copying other: Others) {
      observers = other.observers
      positions = other.positions
    }

    var isEmpty: Bool { positions.isEmpty }

    func add(_ observer: CoreObserver<State>, id: Int) {
      positions[id] = observers.count
      observers.append(observer)
    }

    func remove(_ id: Int) -> CoreObserver<State>? {
      guard let position = positions.removeValue(forKey: id) else { return nil }
      let observer = observers[position]
      observers[position] = nil
      if (observers.count - positions.count) * 2 > observers.count { closeHoles() }
      return observer
    }

    private func closeHoles() {
      // Ids by position, taken from `positions` here rather than kept beside the observers: only
      // closing holes needs them.
      var ids = [Int](repeating: 0, count: observers.count)
      for (id, position) in positions { ids[position] = id }
      var kept = 0
      for position in observers.indices where observers[position] != nil {
        observers[kept] = observers[position]
        positions[ids[position]] = kept
        kept += 1
      }
      observers.removeLast(observers.count - kept)
    }
  }

  package init() {}

  @usableFromInline
  package var isEmpty: Bool { single == nil && others == nil }

  package mutating func add(_ observer: CoreObserver<State>) -> Int {
    let id = nextID
    nextID += 1
    if isEmpty {
      single = observer
      singleID = id
    } else {
      changeOthers { $0.add(observer, id: id) }
    }
    return id
  }

  /// Changes the other observers, in a box of this list's own.
  private mutating func changeOthers<T>(_ body: (Others) -> T) -> T {
    if others == nil {
      others = Others()
    } else if !isKnownUniquelyReferenced(&others!) {
      others = Others(copying: others!)
    }
    let result = body(others!)
    if others!.isEmpty { others = nil }
    return result
  }

  /// Removes an observer and hands it back, so that a caller whose list has no exclusivity
  /// checks lets it go once its access to the list has ended: letting go of an observer can run
  /// deinitialisers.
  @discardableResult
  package mutating func remove(_ id: Int) -> CoreObserver<State>? {
    if let single, singleID == id {
      self.single = nil
      return single
    }
    guard others?.positions[id] != nil else { return nil }
    return changeOthers { $0.remove(id) }
  }

  /// Tells the observers of a core's list, `lone` (``lone``, read out of the list) when there is
  /// one, else a copy of `list`, so that no access to the core's list lasts across the calls,
  /// which may add or remove observers. The lone observer, the usual case, needs no copy of the
  /// list: copying it retained and released its parts, about 40 instructions a core.
  @inline(__always)
  package static func tell(
    _ state: State, lone: CoreObserver<State>?, list: @autoclosure () -> StoreObservers
  ) {
    if let lone {
      lone.stateDidChange(state)
    } else {
      list().notify(state)
    }
  }

  /// Calls every observer added before the call with the state; one removed meanwhile may still
  /// be called this once.
  // Consuming: it tells the observers of its own copy, so one added or removed while they are
  // told changes the core's list and not this one, with no further copy made here.
  package consuming func notify(_ state: State) {
    single?.stateDidChange(state)
    guard let others else { return }
    for observer in others.observers { observer?.stateDidChange(state) }
  }

  /// The observer when it is the only one; `nil` when there are none or several.
  package var lone: CoreObserver<State>? { others == nil ? single : nil }
}
