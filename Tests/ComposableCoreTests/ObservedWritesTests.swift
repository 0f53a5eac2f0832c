import ComposableCore
import Testing

// What a write to observable state tells its readers, as TCA's own observation tests expect.

@ObservableState
private struct Piece: Equatable {
  var count = 0
  mutating func replace(with other: Self) { self = other }
}

@ObservableState
private enum Slot: Equatable {
  case empty
  case filled(piece: Piece)
}

@ObservableState
private struct Tray: Equatable {
  var label = ""
  var piece = Piece()
  var spare = Piece()
  var pieces: [Piece] = []
  var slot = Slot.empty
}

@MainActor
struct ObservedWritesTests {
  private final class Holder { var tray = Tray() }

  @Test func writingAnEqualValueIsSilent() {
    let holder = Holder()
    let labelReader = ChangeCounter { _ = holder.tray.label }
    let pieceReader = ChangeCounter { _ = holder.tray.piece }
    holder.tray.label = holder.tray.label
    holder.tray.piece = holder.tray.piece
    #expect(labelReader.changes == 0)
    #expect(pieceReader.changes == 0)
    holder.tray.label = "new"
    #expect(labelReader.changes == 1)
  }

  // Only the setter compares values: a change in place keeps no copy of the old value (which
  // would copy a collection on every change), so `+= 0` is told, where TCA's is not.
  @Test func aChangeInPlaceIsToldEvenIfEqual() {
    let holder = Holder()
    let countReader = ChangeCounter { _ = holder.tray.piece.count }
    holder.tray.piece.count += 0
    #expect(countReader.changes == 1)
  }

  @Test func writingBackAnEarlierCopyIsTold() {
    let holder = Holder()
    var copy = holder.tray.piece
    copy.count = 42
    holder.tray.spare = copy
    let countReader = ChangeCounter { _ = holder.tray.piece.count }
    // The copy has the piece's identity, but a change in place renews the piece's first.
    holder.tray.piece.replace(with: holder.tray.spare)
    #expect(countReader.changes == 1)
    #expect(holder.tray.piece.count == 42)
  }

  @Test func anElementChangedInPlaceKeepsItsArray() {
    let holder = Holder()
    holder.tray.pieces = [Piece(), Piece()]
    let piecesReader = ChangeCounter { _ = holder.tray.pieces }
    let countReader = ChangeCounter { _ = holder.tray.pieces[0].count }
    holder.tray.pieces[0].count += 1
    #expect(piecesReader.changes == 0)
    #expect(countReader.changes == 1)
    holder.tray.pieces.append(Piece())
    #expect(piecesReader.changes == 1)
  }

  @Test func aCaseWithAPayloadRenewsItsIdentity() {
    var slot = Slot.filled(piece: Piece(count: 1))
    let before = slot._$id
    slot._$willModify()
    #expect(slot._$id != before)
    #expect(slot == .filled(piece: Piece(count: 1)))
    var empty = Slot.empty
    let emptyID = empty._$id
    empty._$willModify()
    #expect(empty._$id == emptyID)
  }
}
