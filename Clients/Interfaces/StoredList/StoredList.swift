import IdentifiedCollections

/// A change to a stored list that can be made again on a newer copy of that list: a screen keeps
/// the changes it has not saved yet and replays them on each list it loads.
public protocol StoredListChange: Sendable {
  /// What the list holds.
  associatedtype Element: Identifiable

  /// Makes the change on `elements`; making it twice changes nothing more.
  func apply(to elements: inout [Element])
}

extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// The list a screen shows after loading `stored`: the stored elements with the changes not
  /// saved yet made again, the first of two elements with one id kept.
  ///
  /// On a screen's first load, pass what it already shows as `shown`: an element added before
  /// the load answered, and not stored yet, stays. Later loads pass `nil` and follow the stored
  /// list, so an element deleted elsewhere goes.
  public init<Change: StoredListChange>(
    loaded stored: [Element],
    replaying unsaved: some Sequence<Change>,
    keepingUnstoredFrom shown: Self? = nil
  ) where Change.Element == Element {
    var elements = stored
    for change in unsaved { change.apply(to: &elements) }
    self.init(elements, uniquingIDsWith: { first, _ in first })
    for element in shown ?? [] where self[id: element.id] == nil { append(element) }
  }
}
