import ComposableTestSupport
import Testing

// The code of the Testing article (ComposableTestSupport.docc/Testing.md), as it is there.

@Reducer
struct Metronome {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
    var isRunning = false
  }

  enum Action: Equatable {
    case startButtonTapped
    case stopButtonTapped
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        state.isRunning = true
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
        .cancellable(id: CancelID.timer)
      case .stopButtonTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

@MainActor
struct MetronomeTests {
  @Test func ticksAsTheTestClockAdvances() async {
    let clock = TestClock()
    let store = TestStore(initialState: Metronome.State()) {
      Metronome()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startButtonTapped) { $0.isRunning = true }
    await clock.advance(by: .seconds(2))
    await store.receive(\.tick) { $0.ticks = 1 }
    await store.receive(\.tick) { $0.ticks = 2 }
    await store.send(.stopButtonTapped) { $0.isRunning = false }
  }

  @Test func checksOnlyWhatItAsserts() async {
    let clock = TestClock()
    let store = TestStore(initialState: Metronome.State()) {
      Metronome()
    } withDependencies: {
      $0.continuousClock = clock
    }
    store.exhaustivity = .off
    await store.send(.startButtonTapped)
    await clock.advance(by: .seconds(3))
    await store.skipReceivedActions()
    #expect(store.state.ticks == 3)
    await store.send(.stopButtonTapped)
  }
}
