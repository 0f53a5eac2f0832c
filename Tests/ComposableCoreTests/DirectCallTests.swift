import ComposableCore
import ComposableTestSupport
import Testing

/// Runs `Inner` by calling its `reduce` directly, as TCA code sometimes does: the inner body is
/// made anew for each action.
struct CallsInner<Inner: Reducer>: Reducer where Inner.State: Equatable {
  let inner: Inner

  var body: some Reducer<Inner.State, Inner.Action> {
    Reduce { state, action in
      inner.reduce(into: &state, action: action)
    }
  }
}

/// A reducer called directly inside a `Reduce` builds its body for that call, so its operators
/// cannot remember between actions that a child started work (``ChildIdentity``): they end a
/// child's work when it goes or is replaced, as TCA's do, whether or not they saw it start.
@MainActor
struct DirectCallTests {
  func makeStore<R: Reducer>(
    _ state: R.State, _ reducer: R, clock: TestClock<Duration>
  ) -> TestStore<R.State, R.Action> where R.State: Equatable {
    TestStore(initialState: state) {
      CallsInner(inner: reducer)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // Another id in the optional's place is another child: the first one's timer must stop.
  @Test func anOptionalChildReplacedInADirectCallHasItsEffectsCancelled() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), TickerList(), clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await store.send(.showDetail(id: 10)) { $0.detail = .init(id: 10) }
    await clock.advance(by: .seconds(3))
  }

  @Test func aPresentedChildDismissedInADirectCallHasItsEffectsCancelled() async {
    let clock = TestClock()
    let store = makeStore(TickerSheet.State(), TickerSheet(), clock: clock)
    await store.send(.show(.ticker(Ticker.State(id: 1)))) {
      $0.destination = .ticker(Ticker.State(id: 1))
    }
    await store.send(.destination(.presented(.ticker(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 1, ticks: 1))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await clock.advance(by: .seconds(3))
  }

  @Test func aPresentedChildReplacedInADirectCallHasItsEffectsCancelled() async {
    let clock = TestClock()
    let store = makeStore(TickerSheet.State(), TickerSheet(), clock: clock)
    await store.send(.show(.ticker(Ticker.State(id: 1)))) {
      $0.destination = .ticker(Ticker.State(id: 1))
    }
    await store.send(.destination(.presented(.ticker(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 1, ticks: 1))
    }
    await store.send(.show(.ticker(Ticker.State(id: 2)))) {
      $0.destination = .ticker(Ticker.State(id: 2))
    }
    await clock.advance(by: .seconds(3))
  }
}
