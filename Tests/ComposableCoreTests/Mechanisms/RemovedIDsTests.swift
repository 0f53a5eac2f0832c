import ComposableCore
import Testing

/// What `forEach` and a stack take for gone after their parent runs: the ids a set difference
/// gives, however the list was edited.
struct RemovedIDsTests {
  @Test func theEditsAListUsuallyGets() {
    let ids = Array(0..<10)
    #expect(idsRemoved(from: ids, to: ids) == [])
    #expect(idsRemoved(from: ids, to: ids + [10]) == [])
    #expect(idsRemoved(from: ids, to: Array(ids.dropLast())) == [9])
    #expect(idsRemoved(from: ids, to: Array(ids.dropFirst())) == [0])
    #expect(idsRemoved(from: ids, to: [0, 1, 2, 3, 7, 8, 9]) == [4, 5, 6])
    #expect(idsRemoved(from: ids, to: [0, 1, 2, 3, 42, 7, 8, 9]) == [4, 5, 6])
    #expect(idsRemoved(from: ids, to: [0, 1, 2, 3, 42, 5, 7, 8, 9]) == [4, 6])
    #expect(idsRemoved(from: ids, to: ids.reversed()) == [])
    #expect(idsRemoved(from: ids, to: []) == ids)
    #expect(idsRemoved(from: [], to: ids) == [])
    // An id moved from the end to the middle is kept, though the ends differ.
    #expect(idsRemoved(from: ids, to: [0, 1, 9, 2, 3, 4, 5, 6, 7, 8]) == [])
  }

  /// Every subset of up to eight ids kept in order, each also with a new id inserted at every
  /// place, and with its last id moved to the front.
  @Test func smallListEditsRemoveWhatASetDifferenceRemoves() {
    for count in 0...8 {
      let before = Array(0..<count)
      for mask in 0..<(1 << count) {
        let kept = before.filter { mask & (1 << $0) != 0 }
        var edits = [kept]
        for place in 0...kept.count {
          var inserted = kept
          inserted.insert(99, at: place)
          edits.append(inserted)
        }
        if let last = kept.last, kept.count > 1 { edits.append([last] + kept.dropLast()) }
        for after in edits {
          let remaining = Set(after)
          #expect(
            idsRemoved(from: before, to: after) == before.filter { !remaining.contains($0) },
            "\(before) → \(after)")
        }
      }
    }
  }
}
