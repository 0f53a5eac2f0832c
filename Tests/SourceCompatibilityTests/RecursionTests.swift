// A feature that holds rows of itself, and one that presents itself, as TCA's recursion case
// study writes them; only the import differs.
import ComposableTestSupport
import Foundation
import Testing

@Reducer
struct Outline {
  @ObservableState
  struct State: Equatable, Identifiable {
    let id: UUID
    var name = ""
    var rows: IdentifiedArrayOf<State> = []
  }
  enum Action: Equatable {
    case addRowButtonTapped
    case nameChanged(String)
    case onDelete(IndexSet)
    indirect case rows(IdentifiedActionOf<Outline>)
  }
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRowButtonTapped:
        state.rows.append(State(id: uuid()))
        return .none
      case .nameChanged(let name):
        state.name = name
        return .none
      case .onDelete(let offsets):
        state.rows.remove(atOffsets: offsets)
        return .none
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: \.rows) {
      Self()
    }
  }
}

@Reducer
struct Drilldown {
  @ObservableState
  struct State: Equatable {
    var depth = 0
    var ticks = 0
    @Presents var child: Drilldown.State?
  }
  enum Action: Equatable {
    case child(PresentationAction<Drilldown.Action>)
    case goDeeper
    case tick
    case startTicking
  }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child:
        return .none
      case .goDeeper:
        state.child = State(depth: state.depth + 1)
        return .none
      case .tick:
        state.ticks += 1
        return .none
      case .startTicking:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
      }
    }
    .ifLet(\.$child, action: \.child) {
      Self()
    }
  }
}

@MainActor
struct RecursionTests {
  @Test func rowsOfRowsEachRunTheFeature() async {
    let store = TestStore(initialState: Outline.State(id: UUID(0))) {
      Outline()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addRowButtonTapped) {
      $0.rows = [Outline.State(id: UUID(0))]
    }
    await store.send(\.rows[id: UUID(0)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows = [Outline.State(id: UUID(1))]
    }
    await store.send(\.rows[id: UUID(0)].rows[id: UUID(1)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows = [Outline.State(id: UUID(2))]
    }
    await store.send(\.rows[id: UUID(0)].rows[id: UUID(1)].rows[id: UUID(2)].nameChanged, "leaf") {
      $0.rows[id: UUID(0)]?.rows[id: UUID(1)]?.rows[id: UUID(2)]?.name = "leaf"
    }
    await store.send(\.rows[id: UUID(0)].onDelete, [0]) {
      $0.rows[id: UUID(0)]?.rows = []
    }
    // A new row where the deleted one was runs the feature afresh, its id from the same store's
    // generator.
    await store.send(\.rows[id: UUID(0)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows = [Outline.State(id: UUID(3))]
    }
  }

  @Test func aSelfPresentingScreenEndsEachLevelsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Drilldown.State()) {
      Drilldown()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.goDeeper) {
      $0.child = Drilldown.State(depth: 1)
    }
    await store.send(\.child.goDeeper) {
      $0.child?.child = Drilldown.State(depth: 2)
    }
    await store.send(\.child.child.startTicking)
    await clock.advance(by: .seconds(2))
    await store.receive(\.child.child.tick) {
      $0.child?.child?.ticks = 1
    }
    await store.receive(\.child.child.tick) {
      $0.child?.child?.ticks = 2
    }
    // Dismissing the middle level ends the timer of the level it presents.
    await store.send(\.child.dismiss) {
      $0.child = nil
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func storesDownARecursiveTreeSendThroughEachLevel() {
    let store = Store(initialState: Drilldown.State()) { Drilldown() }
    store.send(.goDeeper)
    let first = store.scope(state: \.child, action: \.child.presented)!
    first.send(.goDeeper)
    let second = first.scope(state: \.child, action: \.child.presented)!
    second.send(.tick)
    second.send(.tick)
    #expect(store.state.child?.child?.ticks == 2)
    #expect(second.state.depth == 2)
    first.send(.child(.dismiss))
    #expect(store.state.child?.child == nil)
    #expect(first.scope(state: \.child, action: \.child.presented) == nil)
  }
}
