// Several enum reducers in one file, as TCA's own macro tests and a feature with many
// destinations declare them: the compiler crashed (signal 11) on four or more while our
// expansion attached extension macros to the enums it generated.
import ComposableTestSupport
import Testing

@Reducer
struct Leaf {
  @ObservableState
  struct State: Equatable { var taps = 0 }
  enum Action: Equatable { case tapped }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.taps += 1
      return .none
    }
  }
}

@Reducer
enum OneCase {
  case leaf(Leaf)
}

@Reducer
enum TwoCases {
  case first(Leaf)
  case second(Leaf)
}

@Reducer
enum ThreeCases {
  case first(Leaf)
  case second(Leaf)
  case third(Leaf)
}

@Reducer
enum WithAlert {
  case leaf(Leaf)
  case alert(AlertState<Never>)
}

@Reducer
enum NoCases {}

extension OneCase.State: Equatable {}
extension TwoCases.State: Equatable {}
extension ThreeCases.State: Equatable {}

@MainActor
struct EnumReducersTests {
  @Test
  func eachEnumReducerRunsTheCaseItIsIn() async {
    let one = TestStore(initialState: OneCase.State.leaf(Leaf.State())) { OneCase.body }
    await one.send(\.leaf.tapped) { $0 = .leaf(Leaf.State(taps: 1)) }

    let two = TestStore(initialState: TwoCases.State.second(Leaf.State())) { TwoCases.body }
    await two.send(\.second.tapped) { $0 = .second(Leaf.State(taps: 1)) }

    let three = TestStore(initialState: ThreeCases.State.third(Leaf.State())) { ThreeCases.body }
    await three.send(\.third.tapped) { $0 = .third(Leaf.State(taps: 1)) }
  }

  @Test
  func aStoreOfAnEnumReducerScopesToItsCase() {
    let store = Store(initialState: WithAlert.State.leaf(Leaf.State())) { WithAlert.body }
    guard case .leaf(let leaf) = store.case else {
      Issue.record("expected the leaf's store")
      return
    }
    leaf.send(.tapped)
    #expect(leaf.taps == 1)
  }
}
