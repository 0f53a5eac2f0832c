import ComposableCore
import Testing

/// Readers of a collection of observable states (`store.tiles`, a list drawing its rows) hear of
/// a change when its ids change, by membership or by order, and not when a row changes in place,
/// whose own readers hear of that. The identity that decides it holds the ids, so that they
/// cannot be reordered in place unseen, and compares them only when their storage moved.
@MainActor
struct CollectionIdentityTests {
  @Test func aRowChangedInPlaceIsNotAChangeOfTheCollection() {
    #expect(!tilesReadersHear { $0.tiles[id: 2]?.value += 1 })
    #expect(!tilesReadersHear { $0.tiles[1].label = "b" })
  }

  @Test func rowsReorderedInPlaceAreAChange() {
    #expect(tilesReadersHear { $0.tiles.swapAt(0, 1) })
    #expect(tilesReadersHear { $0.tiles.move(fromOffsets: [0], toOffset: 4) })
    #expect(tilesReadersHear { $0.tiles.sort { $0.id > $1.id } })
    #expect(tilesReadersHear { $0.tiles.reverse() })
  }

  @Test func rowsReorderedWhileAnotherCopyHoldsThemAreAChange() {
    #expect(tilesReadersHear(keepingACopy: true) { $0.tiles.swapAt(2, 3) })
  }

  @Test func membershipChangesAreAChange() {
    #expect(tilesReadersHear { $0.tiles.append(Tile.State(id: 9)) })
    #expect(tilesReadersHear { $0.tiles.remove(id: 3) })
    #expect(tilesReadersHear { $0.tiles = [] })
    // In one change, removing one and adding another leaves the count as it was, not the ids.
    #expect(
      tilesReadersHear { state in
        modify(&state.tiles) {
          $0.remove(id: 4)
          $0.append(Tile.State(id: 5))
        }
      })
  }

  @Test func theSameIdsInNewStorageAreNotAChange() {
    #expect(
      !tilesReadersHear {
        $0.tiles = IdentifiedArray(uniqueElements: (1...4).map { Tile.State(id: $0, value: 7) })
      })
    // Reordered and put back in one change: written twice, the same ids in the end.
    #expect(
      !tilesReadersHear { state in
        modify(&state.tiles) {
          $0.swapAt(0, 1)
          $0.swapAt(0, 1)
        }
      })
    #expect(!tilesReadersHear(ids: []) { $0.tiles = [] })
  }

  @Test func aStackReorderedIsAChangeAnElementEditIsNot() {
    var state = TrackedStack.State()
    state.path.append(TrackedHolder.Inner())
    state.path.append(TrackedHolder.Inner())
    let first = state.path.ids[0]
    #expect(!pathReadersHear(in: &state) { $0.path[id: first]?.items[0] += 1 })
    #expect(pathReadersHear(in: &state) { $0.path.swapAt(0, 2) })
    #expect(pathReadersHear(in: &state) { $0.path.removeLast() })
    #expect(state.path.ids.count == 2)
  }

  @Test func aRowActionTellsTheListOnlyForPlainRows() {
    let observed = Store(initialState: Board.State()) { Board() }
    observed.send(.addTile(1))
    let observedReader = ChangeCounter { _ = observed.tiles }
    let valueReader = ChangeCounter { _ = observed.tiles[id: 1]?.value }
    observed.send(.tiles(.element(id: 1, action: .increment)))
    #expect(observedReader.changes == 0)
    #expect(valueReader.changes == 1)

    // A plain row has no readers of its own: the list's readers are what see it change.
    let plain = Store(initialState: PlainRows.State()) { PlainRows() }
    let plainReader = ChangeCounter { _ = plain.rows }
    plain.send(.rows(.element(id: 1, action: 5)))
    #expect(plainReader.changes == 1)
    #expect(plain.rows[id: 1]?.value == 5)
  }

  @Test func anElementActionTellsThePathOnlyForPlainState() {
    let plain = Store(initialState: PlainRows.State()) { PlainRows() }
    let id = plain.path.ids[0]
    let pathReader = ChangeCounter { _ = plain.path }
    plain.send(.path(.element(id: id, action: 3)))
    #expect(pathReader.changes == 1)
    #expect(plain.path[id: id]?.value == 3)
  }

  /// Whether a reader of `tiles` of a state holding tiles with `ids` hears of `edit`. The state
  /// is the only holder of its tiles' storage unless `keepingACopy`.
  private func tilesReadersHear(
    ids: [Int] = [1, 2, 3, 4],
    keepingACopy: Bool = false,
    _ edit: (inout Board.State) -> Void
  ) -> Bool {
    var state = Board.State()
    state.tiles = IdentifiedArray(uniqueElements: ids.map { Tile.State(id: $0) })
    let copy = keepingACopy ? state : nil
    defer { withExtendedLifetime(copy) {} }
    return readersHear(in: &state, reading: { _ = $0.tiles }, edit)
  }

  private func pathReadersHear(
    in state: inout TrackedStack.State,
    _ edit: (inout TrackedStack.State) -> Void
  ) -> Bool {
    readersHear(in: &state, reading: { _ = $0.path }, edit)
  }

  /// Whether what `read` reads of `state` changes with `edit`.
  private func readersHear<State>(
    in state: inout State,
    reading read: (State) -> Void,
    _ edit: (inout State) -> Void
  ) -> Bool {
    let heard = LockIsolated(false)
    withObservationTracking {
      read(state)
    } onChange: {
      heard.setValue(true)
    }
    edit(&state)
    return heard.value
  }
}

private func modify<T>(_ value: inout T, _ body: (inout T) -> Void) {
  body(&value)
}

/// Observable state whose list and stack hold plain values, which have no readers of their own.
@Reducer
struct PlainRows {
  struct Row: Equatable, Identifiable {
    let id: Int
    var value = 0
  }

  @ObservableState
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1)]
    var path = StackState([Row(id: 1)])
  }

  enum Action {
    case rows(IdentifiedAction<Int, Int>)
    case path(StackAction<Row, Int>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.rows, action: \.rows) { Add() }
      .forEach(\.path, action: \.path) { Add() }
  }

  struct Add: Reducer {
    func reduce(into state: inout Row, action: Int) -> Effect<Int> {
      state.value += action
      return .none
    }
  }
}
