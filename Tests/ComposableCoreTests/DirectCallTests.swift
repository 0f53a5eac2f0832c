import ComposableCore
import ComposableTestSupport
import Testing

/// How a `Reduce` runs a reducer it makes as an action runs, as TCA code sometimes does.
enum DirectCall: CaseIterable, Sendable {
  /// `Child().reduce(into:action:)`: the body is made for the call.
  case reduce
  /// `CombineReducers { Child() }.reduce(into:action:)`, as `Scope { … }` would be: the
  /// builder holds the child as a store's tree does, but is itself made for the call.
  case builder
}

/// Runs `Inner` from a `Reduce`, made anew for each action as `call` says.
struct CallsInner<Inner: Reducer>: Reducer where Inner.State: Equatable {
  let inner: Inner
  let call: DirectCall

  var body: some Reducer<Inner.State, Inner.Action> {
    Reduce { state, action in
      switch call {
      case .reduce: inner.reduce(into: &state, action: action)
      case .builder: CombineReducers { inner }.reduce(into: &state, action: action)
      }
    }
  }
}

/// A reducer made as an action runs is made again for the next one, so its operators cannot
/// remember between actions that a child started work (``ChildIdentity``): they end a child's
/// work when it goes or is replaced, as TCA's do, whether or not they saw it start.
@MainActor
struct DirectCallTests {
  func makeStore<R: Reducer>(
    _ state: R.State, _ reducer: R, _ call: DirectCall, clock: TestClock<Duration>
  ) -> TestStore<R.State, R.Action> where R.State: Equatable {
    TestStore(initialState: state) {
      CallsInner(inner: reducer, call: call)
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  // Another id in the optional's place is another child: the first one's timer must stop.
  @Test(arguments: DirectCall.allCases)
  func directCallReplacingAChildEndsItsEffects(call: DirectCall) async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), TickerList(), call, clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await store.send(.showDetail(id: 10)) { $0.detail = .init(id: 10) }
    await clock.advance(by: .seconds(3))
  }

  /// A sheet, called directly, presenting a ticker whose timer has ticked once.
  func presentTicking(
    _ call: DirectCall, clock: TestClock<Duration>
  ) async -> TestStoreOf<TickerSheet> {
    let store = makeStore(TickerSheet.State(), TickerSheet(), call, clock: clock)
    await store.presentTicking(clock: clock)
    return store
  }

  @Test(arguments: DirectCall.allCases)
  func directCallDismissingAChildEndsItsEffects(call: DirectCall) async {
    let clock = TestClock()
    let store = await presentTicking(call, clock: clock)
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await clock.advance(by: .seconds(3))
  }

  @Test(arguments: DirectCall.allCases)
  func directCallReplacingAPresentedChildEndsItsEffects(call: DirectCall) async {
    let clock = TestClock()
    let store = await presentTicking(call, clock: clock)
    await store.send(.show(.ticker(Ticker.State(id: 2)))) {
      $0.destination = .ticker(Ticker.State(id: 2))
    }
    await clock.advance(by: .seconds(3))
  }
}
