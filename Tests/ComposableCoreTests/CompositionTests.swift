import ComposableCore
import ComposableFixtures
import Foundation
import Testing

/// Exercises every builder form: plain sequence, `if`, `if let`, `switch`, `for`.
struct Composite: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
    var optional: Counter.State?
    var log: [String] = []
    var mode = Mode.a
  }

  enum Mode: Equatable { case a, b }

  @CasePathable
  enum Action: Equatable {
    case left(Counter.Action)
    case right(Counter.Action)
    case optional(Counter.Action)
    case ping
  }

  let extraLoggers: Int
  let tag: String?
  let isVerbose: Bool

  var body: some ReducerOf<Self> {
    Scope(state: \.left, action: \.left) { Counter() }
    Scope(state: \.right, action: \.right) { Counter() }
    if isVerbose {
      Reduce { state, _ in
        state.log.append("verbose")
        return .none
      }
    }
    if let tag {
      Reduce { state, _ in
        state.log.append(tag)
        return .none
      }
    }
    switch extraLoggers {
    case 0:
      EmptyReducer()
    default:
      Reduce { state, _ in
        state.log.append("extra")
        return .none
      }
    }
    for index in 0..<extraLoggers {
      Reduce { state, _ in
        state.log.append("loop\(index)")
        return .none
      }
    }
  }
}

@MainActor
struct CompositionTests {
  @Test func scopeRunsTheChildOnlyForItsOwnActions() {
    let store = Store(initialState: Composite.State()) {
      Composite(extraLoggers: 0, tag: nil, isVerbose: false)
    }
    store.send(.left(.increment))
    store.send(.left(.increment))
    store.send(.right(.decrement))
    #expect(store.state.left.count == 2)
    #expect(store.state.right.count == -1)
    #expect(store.state.log.isEmpty)
  }

  @Test func builderBranchesRunInDeclarationOrder() {
    let store = Store(initialState: Composite.State()) {
      Composite(extraLoggers: 2, tag: "tagged", isVerbose: true)
    }
    store.send(.ping)
    #expect(store.state.log == ["verbose", "tagged", "extra", "loop0", "loop1"])
  }

  @Test func absentOptionalBranchesDoNothing() {
    let store = Store(initialState: Composite.State()) {
      Composite(extraLoggers: 0, tag: nil, isVerbose: false)
    }
    store.send(.ping)
    #expect(store.state.log.isEmpty)
  }

  @Test func combineReducersAppliesAModifierToTheGroup() {
    let store = StoreOf<Composite>(initialState: Composite.State()) {
      CombineReducers {
        Scope(state: \.left, action: \.left) { Counter() }
        Reduce { state, action in
          if case .ping = action { state.optional = nil }
          return .none
        }
      }
      .ifLet(\.optional, action: \.optional) { Counter() }
    }
    store.send(.left(.increment))
    #expect(store.state.left.count == 1)
  }

  @Test func ifLetRunsTheChildWhilePresent() {
    let store = StoreOf<Composite>(
      initialState: Composite.State(optional: Counter.State(count: 10))
    ) {
      EmptyReducer()
        .ifLet(\.optional, action: \.optional) { Counter() }
    }
    store.send(.optional(.increment))
    #expect(store.state.optional?.count == 11)
  }

  @Test func anActionForAnAbsentChildIsARuntimeIssue() {
    let store = StoreOf<Composite>(initialState: Composite.State(optional: nil)) {
      EmptyReducer()
        .ifLet(\.optional, action: \.optional) { Counter() }
    }
    withKnownIssue {
      store.send(.optional(.increment))
    } matching: { issue in
      issue.description.contains("received a child action when child state was \"nil\"")
    }
    #expect(store.state.optional == nil)
  }

  @Test func anActionForAMissingElementIsARuntimeIssue() {
    let store = Store(initialState: Rows.State(rows: [.init(id: 1)])) { Rows() }
    store.send(.rows(.element(id: 1, action: .increment)))
    #expect(store.state.rows[id: 1]?.counter.count == 1)
    withKnownIssue {
      store.send(.rows(.element(id: 2, action: .increment)))
    } matching: { issue in
      issue.description.contains("received an action for a missing element")
    }
  }

  @Test func identifiedActionCaseKeyPathsReachOneElement() {
    let path: CaseKeyPath<IdentifiedAction<Int, Counter.Action>, Counter.Action> = \.[id: 2]
    let action = IdentifiedAction<Int, Counter.Action>.element(id: 2, action: .increment)
    #expect(action[case: path] == .increment)
    #expect(
      IdentifiedAction<Int, Counter.Action>.element(id: 3, action: .increment)[case: path] == nil)
    #expect(path(.decrement) == .element(id: 2, action: .decrement))
    #expect(action.is(\.[id: 2].increment))
    #expect(!action.is(\.[id: 2].decrement))
  }

  @Test func onChangeRunsOnlyWhenTheValueChanges() {
    let store = StoreOf<Composite>(initialState: Composite.State()) {
      Scope(state: \.left, action: \.left) { Counter() }
        .onChange(of: \.left.count) { oldValue, newValue in
          Reduce { state, _ in
            state.log.append("\(oldValue)→\(newValue)")
            return .none
          }
        }
    }
    store.send(.left(.increment))
    store.send(.right(.increment))
    store.send(.left(.decrement))
    #expect(store.state.log == ["0→1", "1→0"])
  }

  @Test func dependencyOverridesReachTheReducerAndItsEffects() async {
    let fixed = Date(timeIntervalSince1970: 1_000_000)
    let store = Store(initialState: Stamp.State()) {
      Stamp().dependency(\.date, .constant(fixed))
    }
    await store.send(.stamp).finish()
    #expect(store.state.stamps == [fixed, fixed])

    let storeLevel = Store(initialState: Stamp.State()) {
      Stamp()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 42))
    }
    await storeLevel.send(.stamp).finish()
    #expect(
      storeLevel.state.stamps == [Date(timeIntervalSince1970: 42), Date(timeIntervalSince1970: 42)])
  }

  @Test func printChangesReportsTheActionAndADiff() {
    let output = LockIsolated("")
    let store = Store(initialState: Counter.State()) {
      Counter()._printChanges(.customDump { text in output.withValue { $0 += text } })
    }
    store.send(.increment)
    #expect(
      output.value == """
        received action:
          Counter.Action.increment
        - Counter.State(count: 0)
        + Counter.State(count: 1)

        """
    )
    output.setValue("")
    store.send(.increment)
    store.send(.decrement)
    #expect(output.value.contains("+ Counter.State(count: 2)"))
    #expect(output.value.contains("- Counter.State(count: 2)"))
  }

  /// A state copied before the action holds the same shared value as the state after it: the
  /// diff still shows the value the action found, at every level of printing.
  @Test func printChangesShowsASharedValueChange() {
    struct Tally: Equatable {
      @Shared var count: Int
      var label = "tally"
    }
    let inner = LockIsolated("")
    let outer = LockIsolated("")
    let store = Store<Tally, Int>(initialState: Tally(count: Shared(value: 0))) {
      Reduce { state, step in
        state.$count.withLock { $0 += step }
        return .none
      }
      ._printChanges(.customDump { text in inner.withValue { $0 += text } })
      ._printChanges(.customDump { text in outer.withValue { $0 += text } })
    }
    store.send(2)
    for output in [inner.value, outer.value] {
      #expect(output.contains("-   _count: 0,\n+   _count: 2,\n    label: \"tally\"\n"))
    }
    inner.setValue("")
    store.send(0)
    #expect(inner.value.hasSuffix("  (No state changes)\n"))
  }

  /// A holder of a part of a shared value shows that part as it was.
  @Test func printChangesShowsASharedPartChange() {
    struct Pair: Equatable, Sendable {
      var first = 0
      var second = 0
    }
    struct Parts: Equatable {
      var first: Shared<Int>
    }
    let output = LockIsolated("")
    let pair = Shared(value: Pair())
    let store = Store<Parts, Int>(initialState: Parts(first: pair.first)) {
      Reduce { state, step in
        state.first.withLock { $0 += step }
        return .none
      }
      ._printChanges(.customDump { text in output.withValue { $0 += text } })
    }
    store.send(3)
    #expect(output.value.contains("-   first: 0\n+   first: 3\n"))
    #expect(pair.wrappedValue == Pair(first: 3, second: 0))
  }

  @Test func printChangesSaysWhenNothingChanged() {
    let output = LockIsolated("")
    let store = StoreOf<Composite>(initialState: Composite.State()) {
      EmptyReducer()._printChanges(.customDump { text in output.withValue { $0 += text } })
    }
    store.send(.ping)
    #expect(output.value.hasSuffix("  (No state changes)\n"))
  }

  @Test func anUnhandledErrorInRunIsARuntimeIssue() async {
    let store = Store(initialState: Failing.State()) { Failing() }
    await withKnownIssue {
      await store.send(.unhandled).finish()
    } matching: { issue in
      issue.description.contains("threw an unhandled error") && issue.description.contains("Boom")
    }
    await store.send(.handled).finish()
    #expect(store.state.handled)
  }

  @Test func cancellationIsNeverReportedAsAnError() async {
    let clock = TestClock()
    let store = Store(initialState: Counter.State()) {
      Reduce<Counter.State, Counter.Action> { _, _ in
        .run { _ in try await clock.sleep(for: .seconds(10)) }
      }
    }
    let task = store.send(.increment)
    task.cancel()
    await task.finish()
  }

  @Test func effectMapEmbedsEveryAction() async {
    let effect = Effect<Counter.Action>.merge(
      .send(.increment),
      .run { send in await send(.increment) }
    )
    let store = StoreOf<Composite>(initialState: Composite.State()) {
      Scope(state: \.left, action: \.left) { Counter() }
      Reduce { _, action in
        action == .ping ? effect.map(Composite.Action.left) : .none
      }
    }
    await store.send(.ping).finish()
    #expect(store.state.left.count == 2)
  }
}

/// An enum state: the `Destination`/`Path` pattern, through `Scope` on a case and `ifCaseLet`.
struct Screen: Reducer {
  @CasePathable
  enum State: Equatable {
    case list(Counter.State)
    case detail(Ticker.State)
  }

  @CasePathable
  enum Action: Equatable {
    case list(Counter.Action)
    case detail(Ticker.Action)
    case showList
    case showDetail(id: Int)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.list, action: \.list) { Counter() }
    Reduce { state, action in
      switch action {
      case .showList: state = .list(Counter.State())
      case .showDetail(let id): state = .detail(Ticker.State(id: id))
      case .list, .detail: break
      }
      return .none
    }
    .ifCaseLet(\.detail, action: \.detail) { Ticker() }
  }
}

@MainActor
struct EnumStateTests {
  @Test func scopeOnACaseRunsTheChildInThatCase() {
    let store = Store(initialState: Screen.State.list(Counter.State())) { Screen() }
    store.send(.list(.increment))
    #expect(store.state == .list(Counter.State(count: 1)))
  }

  @Test func scopeOnAnotherCaseIsARuntimeIssue() {
    let store = Store(initialState: Screen.State.detail(Ticker.State(id: 1))) { Screen() }
    withKnownIssue {
      store.send(.list(.increment))
    } matching: { issue in
      issue.description.contains("child state was set to a different case")
    }
  }

  @Test func leavingTheCaseCancelsItsEffects() async {
    let clock = TestClock()
    let store = Store(initialState: Screen.State.detail(Ticker.State(id: 1))) {
      Screen()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.detail(.start))
    // A live store's effect reaches its first sleep on another executor: advance until it ticks.
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while store.state == .detail(Ticker.State(id: 1)), ContinuousClock.now < deadline {
      await clock.advance(by: .seconds(1))
      await Task.yield()
    }
    #expect(store.state != .detail(Ticker.State(id: 1)))
    store.send(.showList)
    // The timer never stops by itself: it finishes only because leaving the case cancelled it.
    await task.finish()
    #expect(store.state == .list(Counter.State()))
  }
}

@MainActor
struct ObservationTests {
  @Test func statesEmitsTheCurrentStateThenEachDistinctChange() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next(isolation: #isolation) == Counter.State(count: 0))
    store.send(.increment)
    #expect(await iterator.next(isolation: #isolation) == Counter.State(count: 1))
    store.send(.increment)
    store.send(.decrement)
    store.send(.increment)
    // Only the newest state is buffered for a slow reader.
    #expect(await iterator.next(isolation: #isolation) == Counter.State(count: 2))
  }

  @Test func equalStatesAreNotEmittedAgain() async {
    let store = StoreOf<Composite>(initialState: Composite.State()) {
      Scope(state: \.left, action: \.left) { Counter() }
    }
    let left = store.scope(state: \.left, action: \.left)
    var iterator = left.states.makeAsyncIterator()
    #expect(await iterator.next(isolation: #isolation)?.count == 0)
    store.send(.ping)  // no change at all
    left.send(.increment)
    #expect(await iterator.next(isolation: #isolation)?.count == 1)
  }

  @Test func scopedStoresSeeParentUpdatesAndSendThroughTheRoot() {
    let store = StoreOf<Composite>(initialState: Composite.State()) {
      Scope(state: \.left, action: \.left) { Counter() }
      Reduce { state, action in
        if case .left = action { state.log.append("parent saw it") }
        return .none
      }
    }
    let left = store.scope(state: \.left, action: \.left)
    left.send(.increment)
    #expect(left.state.count == 1)
    #expect(store.state.log == ["parent saw it"])
    store.send(.left(.increment))
    #expect(left.state.count == 2)
  }
}

struct Stamp: Reducer {
  struct State: Equatable { var stamps: [Date] = [] }
  @CasePathable enum Action: Equatable {
    case stamp
    case stamped(Date)
  }
  @Dependency(\.date.now) var now
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp:
      state.stamps.append(now)
      return .run { send in
        @Dependency(\.date.now) var now
        await send(.stamped(now))
      }
    case .stamped(let date):
      state.stamps.append(date)
      return .none
    }
  }
}

struct Failing: Reducer {
  struct State: Equatable { var handled = false }
  @CasePathable enum Action: Equatable {
    case unhandled, handled, didHandle
  }
  struct Boom: Error {}
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .unhandled:
      return .run { _ in throw Boom() }
    case .handled:
      return .run { _ in
        throw Boom()
      } catch: { _, send in
        await send(.didHandle)
      }
    case .didHandle:
      state.handled = true
      return .none
    }
  }
}
