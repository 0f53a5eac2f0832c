import OrderedCollections

/// The kept row stores of one collection, and the collection's ids after the last action.
///
/// A row's store does not watch its parent after every action, as a presented child's does: a
/// list keeps a store per row shown, and a read of every row after every action made an action
/// cost thousands of instructions per kept row. Instead the collection is read once per action,
/// and only when its ids changed (a row added or removed) are the kept rows looked for. The ids
/// are compared by their storage first, so an action that leaves them alone costs nothing more;
/// holding them makes the next insertion or removal copy them, once.
@MainActor
@usableFromInline
final class KeptRows<ElementID: Hashable, ElementState, ElementAction> {
  private var ids: OrderedSet<ElementID>
  private let removedIDs: (OrderedSet<ElementID>, OrderedSet<ElementID>) -> [ElementID]
  /// The row stores kept, by their rows' ids.
  // Read each time a screen asks for a row's store, and changed only as a store is made or its
  // row goes, on the main actor, with no access lasting across a call out: the dynamic
  // exclusivity check a class's stored property pays on each access would guard nothing.
  @usableFromInline @exclusivity(unchecked) var stores:
    [ElementID: Store<ElementState, ElementAction>] = [:]

  init(
    ids: OrderedSet<ElementID>,
    removedIDs: @escaping (OrderedSet<ElementID>, OrderedSet<ElementID>) -> [ElementID]
  ) {
    self.ids = ids
    self.removedIDs = removedIDs
  }

  /// Tells each kept row whose id is no longer in the collection that it is gone.
  func update(ids: OrderedSet<ElementID>) {
    guard ids != self.ids else { return }
    // The ids that went, found as `forEach` finds them, rather than every kept row looked up:
    // with a store kept for each of 100,000 rows, a row added and removed cost 29 ms.
    let removed = removedIDs(self.ids, ids)
    self.ids = ids
    for id in removed {
      if let row = stores[id]?.core as? any TransientChild { row.childIsGone() }
    }
  }
}

/// Where a row store's element is in its collection: its id, and the position it was last found
/// at, tried first.
///
/// A drawn row's store finds its element after every action. Rows seldom move, so comparing the
/// id at the last position saves hashing it and probing the ids' table (about 250 instructions a
/// drawn row after each action); a row that moved is looked up by its id, as before.
@usableFromInline
final class RowPlace<ElementID: Hashable> {
  @usableFromInline let id: ElementID
  // A hint, checked before use; read and written by the row store's reader, on the main actor.
  @usableFromInline @exclusivity(unchecked) var last = 0

  @inlinable
  init(_ id: ElementID) {
    self.id = id
  }

  // The collection is lent `inout` and only read: borrowed as a value, it was copied for each
  // call, a retain and a release for each of its five references.
  /// The element's position in `rows`, `nil` when it is not there.
  @inlinable
  func index<Element>(in rows: inout IdentifiedArray<ElementID, Element>) -> Int? {
    if last < rows.count, rows.ids[last] == id { return last }
    guard let index = rows.index(id: id) else { return nil }
    last = index
    return index
  }

  /// A copy of the element, `nil` when it is not in `rows`.
  @inlinable
  func element<Element>(of rows: inout IdentifiedArray<ElementID, Element>) -> Element? {
    guard let index = index(in: &rows) else { return nil }
    return rows[index]
  }

  /// Calls `body` with the element where `rows` stores it; `false` when it is not there. `body`
  /// only reads it: `inout` hands it over without a copy.
  @inlinable
  func visit<Element>(
    _ rows: inout IdentifiedArray<ElementID, Element>, _ body: (inout Element) -> Void
  ) -> Bool {
    guard let index = index(in: &rows) else { return false }
    rows.elements.withUnsafeBufferPointer {
      body(&UnsafeMutablePointer(mutating: $0.baseAddress! + index).pointee)
    }
    return true
  }
}
