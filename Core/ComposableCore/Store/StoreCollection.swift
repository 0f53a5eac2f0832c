import OrderedCollections

/// The stores of the elements of an identified collection, one per id, in the collection's order
/// when it was scoped.
@MainActor
public struct StoreCollection<ID: Hashable & Sendable, State, Action>:
  @MainActor RandomAccessCollection
{
  // The collection's own ordered ids, shared rather than copied into an array on every scope.
  @usableFromInline let ids: OrderedSet<ID>
  /// The collection's kept row stores when it was scoped, if any.
  @usableFromInline let kept: KeptRows<ID, State, Action>?
  /// Any other row's store: the one kept since, or a new one.
  @usableFromInline let store: (ID) -> Store<State, Action>

  @usableFromInline
  init(
    ids: OrderedSet<ID>, kept: KeptRows<ID, State, Action>?,
    store: @escaping (ID) -> Store<State, Action>
  ) {
    self.ids = ids
    self.kept = kept
    self.store = store
  }

  /// The first position.
  public var startIndex: Int { 0 }
  /// The position after the last element.
  public var endIndex: Int { ids.count }

  // Inlinable, so that a kept row's store, what a screen drawn again asks for, is found by code
  // specialised for the row's types.
  /// The store of the element at `position`.
  @inlinable
  public subscript(position: Int) -> Store<State, Action> {
    let id = ids[position]
    if let store = kept?.stores[id] { return store }
    return store(id)
  }
}
