extension IdentifiedArray where Element: Identifiable, ID == Element.ID {
  /// The elements a load returned, in their order, followed by this array's elements the load did
  /// not have: items the user added while the load was in flight, so a late answer never erases
  /// them. A duplicated id in the loaded elements keeps its first occurrence.
  public func merging(loaded: some Sequence<Element>) -> Self {
    var merged = IdentifiedArray(loaded, uniquingIDsWith: { first, _ in first })
    for element in self where merged[id: element.id] == nil {
      merged.append(element)
    }
    return merged
  }
}
