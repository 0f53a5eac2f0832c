import IdentifiedCollections
import StoredList
import Testing

private struct Note: Identifiable, Equatable {
  let id: Int
  var text: String
}

private enum NoteChange: StoredListChange {
  case save(Note)
  case delete(id: Int)

  func apply(to notes: inout [Note]) {
    switch self {
    case .save(let note):
      if let index = notes.firstIndex(where: { $0.id == note.id }) {
        notes[index] = note
      } else {
        notes.append(note)
      }
    case .delete(let id):
      notes.removeAll { $0.id == id }
    }
  }
}

@Suite struct StoredListTests {
  @Test func unsavedChangesAreMadeAgainOnTheLoadedList() {
    let stored = [Note(id: 1, text: "stored"), Note(id: 2, text: "gone soon")]
    let merged = IdentifiedArray(
      loaded: stored,
      replaying: [NoteChange.save(Note(id: 1, text: "edited")), .delete(id: 2)]
    )
    #expect(merged == [Note(id: 1, text: "edited")])
  }

  @Test func aChangeTheFileAlreadyHasChangesNothing() {
    let stored = [Note(id: 1, text: "edited")]
    let merged = IdentifiedArray(
      loaded: stored, replaying: [NoteChange.save(Note(id: 1, text: "edited"))])
    #expect(merged == [Note(id: 1, text: "edited")])
  }

  @Test func aFirstLoadKeepsWhatWasAddedMeanwhile() {
    let shown: IdentifiedArrayOf<Note> = [Note(id: 3, text: "added before the answer")]
    let merged = IdentifiedArray(
      loaded: [Note(id: 1, text: "stored")], replaying: [NoteChange](), keepingUnstoredFrom: shown)
    #expect(merged == [Note(id: 1, text: "stored"), Note(id: 3, text: "added before the answer")])
  }

  @Test func aLaterLoadFollowsTheStoredList() {
    let merged = IdentifiedArray(loaded: [Note(id: 1, text: "stored")], replaying: [NoteChange]())
    #expect(merged == [Note(id: 1, text: "stored")])
  }

  @Test func twoStoredElementsWithOneIdKeepTheFirst() {
    let merged = IdentifiedArray(
      loaded: [Note(id: 1, text: "first"), Note(id: 1, text: "second")],
      replaying: [NoteChange]())
    #expect(merged == [Note(id: 1, text: "first")])
  }
}
