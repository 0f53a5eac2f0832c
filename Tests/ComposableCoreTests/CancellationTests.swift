import ComposableCore
import ComposableTestSupport
import Testing

/// Exhaustive test stores: a tick that should not happen arrives unreceived and fails the test,
/// so "it stopped" is asserted without waiting for nothing to happen.
@MainActor
struct CancellationTests {
  func makeStore<R: Reducer>(
    _ state: R.State, _ reducer: R, clock: TestClock<Duration>
  ) -> TestStore<R.State, R.Action> where R.State: Equatable {
    TestStore(initialState: state) {
      reducer
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func cancelStopsAnEffectById() async {
    let clock = TestClock()
    let store = makeStore(Ticker.State(id: 1), Ticker(), clock: clock)
    await store.send(.start)
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.send(.stop)
    await clock.advance(by: .seconds(5))
  }

  @Test func cancelInFlightReplacesTheRunningEffect() async {
    let clock = TestClock()
    let store = makeStore(Ticker.State(id: 1), Ticker(), clock: clock)
    await store.send(.start)
    await clock.advance(by: .milliseconds(500))
    await store.send(.restart)
    // Only the restarted timer ticks: one tick per second from the restart, not two.
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.ticks = 3 }
    await store.send(.stop)
  }

  @Test func withoutCancelInFlightBothEffectsRun() async {
    let clock = TestClock()
    let store = makeStore(Ticker.State(id: 1), Ticker(), clock: clock)
    await store.send(.start)
    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    // One id cancels both.
    await store.send(.stop)
    await clock.advance(by: .seconds(1))
  }

  @Test func siblingsInAForEachDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = makeStore(
      TickerList.State(rows: [.init(id: 1), .init(id: 2)]), TickerList(), clock: clock)
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.rows(.element(id: 2, action: .start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    // Same CancelID, different element: only row 1 stops.
    await store.send(.rows(.element(id: 1, action: .stop)))
    await clock.advance(by: .seconds(2))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 2 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 3 }
    await store.send(.rows(.element(id: 2, action: .stop)))
  }

  /// As in TCA, a feature cancelling an id reaches the effects its children started under it:
  /// the parent stops every row's timer, though each row stops only its own.
  @Test func aParentCancelsItsChildrensEffectsByTheirID() async {
    let clock = TestClock()
    let store = makeStore(
      TickerBoard.State(rows: [.init(id: 1), .init(id: 2)]), TickerBoard(), clock: clock)
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.rows(.element(id: 2, action: .start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    await store.send(.stopAll)
    await clock.advance(by: .seconds(5))
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(
      TickerList.State(rows: [.init(id: 1), .init(id: 2)]), TickerList(), clock: clock)
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.rows(.element(id: 2, action: .start)))
    await store.send(.remove(id: 1)) { $0.rows.remove(id: 1) }
    // A tick for row 1 would arrive as an action for a missing element, unreceived.
    await clock.advance(by: .seconds(2))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 2 }
    await store.send(.rows(.element(id: 2, action: .stop)))
  }

  @Test func niliingIfLetStateCancelsChildEffects() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), TickerList(), clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await store.send(.closeDetail) { $0.detail = nil }
    await clock.advance(by: .seconds(3))
  }

  // The parent may remove the child in answer to the child's own action, one that starts no work
  // itself (a tick): the timer the child started earlier ends with it.
  @Test func aChildRemovedByItsOwnActionHasItsWorkCancelled() async {
    let clock = TestClock()
    let store = makeStore(TwoTicks.State(detail: .init(id: 1)), TwoTicks(), clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail = nil }
    await clock.advance(by: .seconds(3))
  }

  // As in TCA, an optional child is the same child while its id is: another id put in its place
  // is a new child, whose predecessor's timer must not tick into it.
  @Test func anIfLetChildWithANewIDEndsTheOldEffects() async {
    let clock = TestClock()
    let store = makeStore(TickerList.State(detail: .init(id: 9)), TickerList(), clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await store.send(.showDetail(id: 10)) { $0.detail = .init(id: 10) }
    await clock.advance(by: .seconds(3))
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    // The same id again is the same child: a new value, but its work goes on.
    await store.send(.showDetail(id: 10)) { $0.detail?.ticks = 0 }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0.detail?.ticks = 1 }
    await store.send(.closeDetail) { $0.detail = nil }
    await clock.advance(by: .seconds(3))
  }

  // `ifCaseLet` tells its case's child by id too.
  @Test func anEnumCaseChildWithANewIDEndsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(Screen.State.detail(Ticker.State(id: 1)), Screen(), clock: clock)
    await store.send(.detail(.start))
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0 = .detail(Ticker.State(id: 1, ticks: 1)) }
    await store.send(.showDetail(id: 1)) { $0 = .detail(Ticker.State(id: 1)) }
    await clock.advance(by: .seconds(1))
    await store.receive(.detail(.tick)) { $0 = .detail(Ticker.State(id: 1, ticks: 1)) }
    await store.send(.showDetail(id: 2)) { $0 = .detail(Ticker.State(id: 2)) }
    await clock.advance(by: .seconds(3))
  }

  // An enum child is told apart by its case: the same id in another case is a new child.
  @Test func anIfLetEnumInAnotherCaseEndsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(
      PanelHost.State(panel: .ticker(Ticker.State(id: 1))), PanelHost(), clock: clock)
    await store.send(.panel(.ticker(.start)))
    await clock.advance(by: .seconds(1))
    await store.receive(.panel(.ticker(.tick))) {
      $0.panel = .ticker(Ticker.State(id: 1, ticks: 1))
    }
    await store.send(.show(.ticker(Ticker.State(id: 1)))) {
      $0.panel = .ticker(Ticker.State(id: 1))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.panel(.ticker(.tick))) {
      $0.panel = .ticker(Ticker.State(id: 1, ticks: 1))
    }
    await store.send(.show(.other(Ticker.State(id: 1)))) { $0.panel = .other(Ticker.State(id: 1)) }
    await clock.advance(by: .seconds(3))
  }

  // An enum child is told apart by its payload's id too: another id in the same case is a new
  // child, and the same id again is the same one.
  @Test func anIfLetEnumWithANewIDInItsCaseEndsItsEffects() async {
    let clock = TestClock()
    let store = makeStore(
      PanelHost.State(panel: .ticker(Ticker.State(id: 1))), PanelHost(), clock: clock)
    await store.send(.panel(.ticker(.start)))
    await store.send(.show(.ticker(Ticker.State(id: 1, ticks: 5)))) {
      $0.panel = .ticker(Ticker.State(id: 1, ticks: 5))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.panel(.ticker(.tick))) {
      $0.panel = .ticker(Ticker.State(id: 1, ticks: 6))
    }
    await store.send(.show(.ticker(Ticker.State(id: 2)))) {
      $0.panel = .ticker(Ticker.State(id: 2))
    }
    await clock.advance(by: .seconds(3))
  }

  // A presented child's `.cancel(id:)` reaches its own effects whichever child is presented,
  // and a child presented again is the same one only in the same case with the same id.
  @Test func aPresentedChildKeepsItsWorkWhenPresentedAgain() async {
    let clock = TestClock()
    let store = makeStore(TickerSheet.State(), TickerSheet(), clock: clock)
    await store.presentTicking(clock: clock)
    await store.send(.show(.ticker(Ticker.State(id: 1)))) {
      $0.destination = .ticker(Ticker.State(id: 1))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 1, ticks: 1))
    }
    await store.send(.destination(.presented(.ticker(.stop))))
    await clock.advance(by: .seconds(3))
    await store.send(.destination(.presented(.ticker(.start))))
    // Another id in the same case is another child: the first one's timer ends.
    await store.send(.show(.ticker(Ticker.State(id: 2)))) {
      $0.destination = .ticker(Ticker.State(id: 2))
    }
    await clock.advance(by: .seconds(3))
    await store.send(.destination(.presented(.ticker(.start))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 2, ticks: 1))
    }
    await store.send(.destination(.presented(.ticker(.stop))))
    await clock.advance(by: .seconds(3))
  }

  // A child in a nested enum reducer's case is told apart by both cases.
  @Test func aPresentedChildInAnotherNestedCaseIsANewChild() async {
    let clock = TestClock()
    let store = makeStore(
      TickerSheet.State(destination: .panel(.ticker(Ticker.State(id: 1)))), TickerSheet(),
      clock: clock)
    await store.send(.destination(.presented(.panel(.ticker(.start)))))
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.panel(.ticker(.tick))))) {
      $0.destination = .panel(.ticker(Ticker.State(id: 1, ticks: 1)))
    }
    await store.send(.show(.panel(.ticker(Ticker.State(id: 1))))) {
      $0.destination = .panel(.ticker(Ticker.State(id: 1)))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.destination(.presented(.panel(.ticker(.tick))))) {
      $0.destination = .panel(.ticker(Ticker.State(id: 1, ticks: 1)))
    }
    await store.send(.show(.panel(.other(Ticker.State(id: 1))))) {
      $0.destination = .panel(.other(Ticker.State(id: 1)))
    }
    await clock.advance(by: .seconds(3))
  }

  @Test func scopedStoresShareTheRootsEffects() async throws {
    let clock = TestClock()
    let store = Store(initialState: TickerList.State(detail: .init(id: 9))) {
      TickerList()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let detail = try #require(store.scope(state: \.detail, action: \.detail))
    let task = detail.send(.start)
    // A live store's effect reaches its first sleep on another executor: advance until it ticks.
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while detail.state.ticks == 0, ContinuousClock.now < deadline {
      await clock.advance(by: .seconds(1))
      await Task.yield()
    }
    #expect(detail.state.ticks >= 1)
    #expect(store.state.detail?.ticks == detail.state.ticks)
    detail.send(.stop)
    await task.finish()
  }

  /// A list cleared at once stops every element's work, including work one level below each
  /// element, and nothing in another list whose elements have the same ids.
  @Test func clearingAListCancelsOnlyItsElementsEffects() async {
    let clock = TestClock()
    let count = 500
    let pairs = (1...count).map { TickerPair.State(id: $0, ticker: Ticker.State(id: $0)) }
    let store = makeStore(
      TickerTable.State(pairs: IdentifiedArray(uniqueElements: pairs), rows: [.init(id: 1)]),
      TickerTable(), clock: clock)
    for id in 1...count {
      await store.send(.pairs(.element(id: id, action: .ticker(.start))))
    }
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.clearPairs) { $0.pairs = [] }
    await clock.advance(by: .seconds(2))
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 1 }
    await store.receive(.rows(.element(id: 1, action: .tick))) { $0.rows[id: 1]?.ticks = 2 }
    await store.send(.rows(.element(id: 1, action: .stop)))
  }

  // A row's effects are its own whichever rows acted in between: the first row's `.stop`, after
  // the second row started, cancels the first row's timer alone, and clearing the pairs their
  // timers, each started by its own row.
  @Test func aRowStopsItsOwnWorkAfterAnotherRowStarted() async {
    let clock = TestClock()
    let pairs = (1...2).map { TickerPair.State(id: $0, ticker: Ticker.State(id: $0)) }
    let store = makeStore(
      TickerTable.State(
        pairs: IdentifiedArray(uniqueElements: pairs), rows: [.init(id: 1), .init(id: 2)]),
      TickerTable(), clock: clock)
    await store.send(.rows(.element(id: 1, action: .start)))
    await store.send(.pairs(.element(id: 1, action: .ticker(.start))))
    await store.send(.rows(.element(id: 2, action: .start)))
    await store.send(.pairs(.element(id: 2, action: .ticker(.start))))
    await store.send(.rows(.element(id: 1, action: .stop)))
    await store.send(.clearPairs) { $0.pairs = [] }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
    await store.send(.rows(.element(id: 2, action: .stop)))
  }

  @Test func deallocatingTheStoreCancelsItsEffects() async {
    let clock = TestClock()
    var store: StoreOf<Ticker>? = Store(initialState: Ticker.State(id: 1)) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store?.send(.start)
    #expect(task?.isCancelled == false)
    store = nil
    // The effect finishes only because the store's teardown cancelled it.
    await task?.finish()
  }

  @Test func anIDCancelsOnlyEqualIDsOfItsOwnType() async {
    let clock = TestClock()
    let store = makeStore(Alarms.State(), Alarms(), clock: clock)
    // Set 100 ms apart, so that they ring in the order they were set.
    let alarms: [Alarms.ID] = [.int(1), .byte(1), .tagged(1), .tagged(2)]
    for alarm in alarms {
      await store.send(.set(alarm))
      await clock.advance(by: .milliseconds(100))
    }
    // `1 as Int` and `1 as UInt8` are equal as `AnyHashable`s, but not as ids, as in TCA.
    await store.send(.cancel(.int(1)))
    await store.send(.cancel(.tagged(1)))
    await clock.advance(by: .seconds(1))
    await store.receive(.rang(.byte(1))) { $0.rang = [.byte(1)] }
    await store.receive(.rang(.tagged(2))) { $0.rang = [.byte(1), .tagged(2)] }
  }
}

/// A child effect that only sends is not tied to the child's place (nothing of it can be
/// cancelled); one that also starts work keeps that place, so the work still ends with the child.
@MainActor
struct ChildEffectPlaceTests {
  func makeStore(_ state: Pinger.State, clock: TestClock<Duration>) -> TestStoreOf<Pinger> {
    TestStore(initialState: state) {
      Pinger()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aSendFromAPresentedChildOrAStackElementArrives() async {
    let store = makeStore(
      Pinger.State(destination: .ping(.init(id: 1)), path: [.ping(.init(id: 2))]),
      clock: TestClock())
    await store.send(.destination(.presented(.ping(.greet))))
    await store.receive(\.destination.presented.ping.greeted) {
      $0.destination = .ping(.init(id: 1, greetings: 1))
    }
    await store.send(.path(.element(id: 0, action: .ping(.greet))))
    await store.receive(\.path[id: 0].ping.greeted) {
      $0.path[id: 0] = .ping(.init(id: 2, greetings: 1))
    }
  }

  @Test func aSendFromAScopedOptionalOrRowChildArrives() async {
    let store = makeStore(
      Pinger.State(detail: Pinger.Ping.State(id: 1), rows: [Pinger.Ping.State(id: 2)]),
      clock: TestClock())
    await store.send(.main(.greet))
    await store.receive(\.main.greeted) { $0.main.greetings = 1 }
    await store.send(.detail(.greet))
    await store.receive(\.detail.greeted) { $0.detail?.greetings = 1 }
    await store.send(.rows(.element(id: 2, action: .greet)))
    await store.receive(\.rows[id: 2].greeted) { $0.rows[id: 2]?.greetings = 1 }
  }

  @Test func mergedWorkEndsWhenThePresentedChildIsDismissed() async {
    let clock = TestClock()
    let store = makeStore(Pinger.State(destination: .ping(.init(id: 1))), clock: clock)
    await store.send(.destination(.presented(.ping(.start))))
    await store.receive(\.destination.presented.ping.greeted) {
      $0.destination = .ping(.init(id: 1, greetings: 1))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.presented.ping.tick) {
      $0.destination = .ping(.init(id: 1, greetings: 1, ticks: 1))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    // A tick after the dismissal would arrive unreceived and fail the test.
    await clock.advance(by: .seconds(3))
  }

  @Test func aStackElementsMergedCancelStopsOnlyItsOwnWork() async {
    let clock = TestClock()
    let store = makeStore(
      Pinger.State(path: [.ping(.init(id: 1)), .ping(.init(id: 2))]), clock: clock)
    await store.send(.path(.element(id: 0, action: .ping(.start))))
    await store.receive(\.path[id: 0].ping.greeted) {
      $0.path[id: 0] = .ping(.init(id: 1, greetings: 1))
    }
    await store.send(.path(.element(id: 1, action: .ping(.start))))
    await store.receive(\.path[id: 1].ping.greeted) {
      $0.path[id: 1] = .ping(.init(id: 2, greetings: 1))
    }
    // The same cancellation id in the other element: only element 1's timer stops.
    await store.send(.path(.element(id: 1, action: .ping(.stop))))
    await store.receive(\.path[id: 1].ping.greeted) {
      $0.path[id: 1] = .ping(.init(id: 2, greetings: 2))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].ping.tick) {
      $0.path[id: 0] = .ping(.init(id: 1, greetings: 1, ticks: 1))
    }
    // Popping element 0 ends its timer.
    await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
    await clock.advance(by: .seconds(3))
  }
}

/// Alarms set under ids of several types, each ringing once a second after it is set.
struct Alarms: Reducer {
  struct State: Equatable {
    var rang: [ID] = []
  }

  /// Which id an alarm is set under.
  enum ID: Equatable, Sendable {
    case int(Int)
    case byte(UInt8)
    case tagged(Int)
  }

  enum Tag: Hashable, Sendable { case alarm(row: Int) }

  enum Action: Equatable {
    case set(ID)
    case cancel(ID)
    case rang(ID)
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let id):
      let ring = Effect<Action>.run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.rang(id))
      }
      switch id {
      case .int(let value): return ring.cancellable(id: value)
      case .byte(let value): return ring.cancellable(id: value)
      case .tagged(let row): return ring.cancellable(id: Tag.alarm(row: row))
      }
    case .cancel(.int(let value)): return .cancel(id: value)
    case .cancel(.byte(let value)): return .cancel(id: value)
    case .cancel(.tagged(let row)): return .cancel(id: Tag.alarm(row: row))
    case .rang(let id):
      state.rang.append(id)
      return .none
    }
  }
}

@Reducer
struct Pinger {
  @Reducer
  struct Ping {
    struct State: Equatable, Identifiable {
      let id: Int
      var greetings = 0
      var ticks = 0
    }

    enum Action: Equatable {
      case greet
      case greeted
      case start
      case stop
      case tick
    }

    enum CancelID { case timer }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .greet:
        return .send(.greeted)
      case .greeted:
        state.greetings += 1
        return .none
      case .start:
        return .merge(
          .send(.greeted),
          .run { send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
          .cancellable(id: CancelID.timer)
        )
      case .stop:
        return .merge(.cancel(id: CancelID.timer), .send(.greeted))
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  @Reducer(state: .equatable, action: .equatable)
  enum Destination {
    case ping(Ping)
  }

  @Reducer(state: .equatable, action: .equatable)
  enum Path {
    case ping(Ping)
  }

  struct State: Equatable {
    @Presents var destination: Destination.State?
    var path = StackState<Path.State>()
    var main = Ping.State(id: 0)
    var detail: Ping.State?
    var rows: IdentifiedArrayOf<Ping.State> = []
  }

  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
    case path(StackActionOf<Path>)
    case main(Ping.Action)
    case detail(Ping.Action)
    case rows(IdentifiedActionOf<Ping>)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.main, action: \.main) { Ping() }
    EmptyReducer()
      .ifLet(\.$destination, action: \.destination)
      .forEach(\.path, action: \.path)
      .ifLet(\.detail, action: \.detail) { Ping() }
      .forEach(\.rows, action: \.rows) { Ping() }
  }
}

/// A list element holding an optional ticker, whose effects run one level below the element.
struct TickerPair: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var ticker: Ticker.State?
  }

  @CasePathable
  enum Action: Equatable {
    case ticker(Ticker.Action)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().ifLet(\.ticker, action: \.ticker) { Ticker() }
  }
}

/// Two lists of tickers, the first of which can be cleared at once.
struct TickerTable: Reducer {
  struct State: Equatable {
    var pairs: IdentifiedArrayOf<TickerPair.State> = []
    var rows: IdentifiedArrayOf<Ticker.State> = []
  }

  @CasePathable
  enum Action: Equatable {
    case pairs(IdentifiedActionOf<TickerPair>)
    case rows(IdentifiedActionOf<Ticker>)
    case clearPairs
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .clearPairs = action { state.pairs.removeAll() }
      return .none
    }
    .forEach(\.pairs, action: \.pairs) { TickerPair() }
    .forEach(\.rows, action: \.rows) { Ticker() }
  }
}

/// A panel that is an enum reducer's state, shown through a plain optional and `ifLet`.
@Reducer
struct PanelHost {
  @Reducer(state: .equatable, action: .equatable)
  enum Panel {
    case ticker(Ticker)
    case other(Ticker)
  }

  struct State: Equatable {
    var panel: Panel.State?
  }

  @CasePathable
  enum Action: Equatable {
    case panel(Panel.Action)
    case show(Panel.State)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .show(let panel) = action { state.panel = panel }
      return .none
    }
    .ifLet(\.panel, action: \.panel) { Panel.body }
  }
}

/// A sheet presenting a ticker, or a panel of two cases that each hold one.
@Reducer
struct TickerSheet {
  @Reducer(state: .equatable, action: .equatable)
  enum Destination {
    case ticker(Ticker)
    case panel(PanelHost.Panel.Body = PanelHost.Panel.body)
  }

  struct State: Equatable {
    @Presents var destination: Destination.State?
  }

  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
    case show(Destination.State)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .show(let destination) = action { state.destination = destination }
      return .none
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension TestStore where State == TickerSheet.State, Action == TickerSheet.Action {
  /// Presents a ticker and starts its timer, which ticks once.
  func presentTicking(clock: TestClock<Duration>) async {
    await send(.show(.ticker(Ticker.State(id: 1)))) {
      $0.destination = .ticker(Ticker.State(id: 1))
    }
    await send(.destination(.presented(.ticker(.start))))
    await clock.advance(by: .seconds(1))
    await receive(.destination(.presented(.ticker(.tick)))) {
      $0.destination = .ticker(Ticker.State(id: 1, ticks: 1))
    }
  }
}

/// A ticker the parent closes itself once it has ticked twice, in answer to the second tick.
struct TwoTicks: Reducer {
  struct State: Equatable {
    var detail: Ticker.State?
  }

  @CasePathable
  enum Action: Equatable {
    case detail(Ticker.Action)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .detail(.tick) = action, state.detail?.ticks == 2 { state.detail = nil }
      return .none
    }
    .ifLet(\.detail, action: \.detail) { Ticker() }
  }
}

/// Rows of timers and a button that stops them all by the rows' own cancellation id.
struct TickerBoard: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
  }

  @CasePathable
  enum Action: Equatable {
    case rows(IdentifiedActionOf<Ticker>)
    case stopAll
  }

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      action == .stopAll ? .cancel(id: Ticker.CancelID.timer) : .none
    }
    .forEach(\.rows, action: \.rows) { Ticker() }
  }
}
