import ComposableCore
import ComposableFixtures
import ComposableTestSupport
import Foundation
import Testing

/// Counts how many times a reducer's body was built.
final class BuildLog: Sendable {
  private let builds = LockIsolated<[String: Int]>([:])

  func record(_ name: String) {
    builds.withValue { $0[name, default: 0] += 1 }
  }

  func count(_ name: String) -> Int {
    builds.value[name, default: 0]
  }
}

private enum BonusKey: DependencyKey {
  static let liveValue = 0
  static let testValue = 0
}

extension DependencyValues {
  /// A number a body reads while it is built, to show bodies follow their dependencies.
  var bodyBonus: Int {
    get { self[BonusKey.self] }
    set { self[BonusKey.self] = newValue }
  }
}

/// Adds its step; its body is built from a stored property.
struct Stepper: Reducer {
  let step: Int
  let log: BuildLog

  var body: some Reducer<Int, Void> {
    let _ = log.record("Stepper \(step)")
    Reduce { state, _ in
      state += step
      return .none
    }
  }
}

/// Does nothing, from a body that logs each time it is built.
struct BodyProbe<State, Action>: Reducer {
  let name: String
  let log: BuildLog

  var body: some Reducer<State, Action> {
    let _ = log.record(name)
    EmptyReducer()
  }
}

/// A parent whose body makes a child reducer, both logged.
struct Nesting: Reducer {
  struct State: Equatable {
    var child = 0
    var taps = 0
  }

  @CasePathable
  enum Action: Equatable {
    case tap
    case child(Void)

    static func == (lhs: Self, rhs: Self) -> Bool {
      switch (lhs, rhs) {
      case (.tap, .tap), (.child, .child): true
      default: false
      }
    }
  }

  let log: BuildLog

  var body: some ReducerOf<Self> {
    let _ = log.record("Nesting")
    Scope(state: \.child, action: \.child) {
      Stepper(step: 2, log: log)
    }
    Reduce { state, action in
      if case .tap = action { state.taps += 1 }
      return .none
    }
  }
}

/// A body that reads a dependency while it is built, and bakes the value in: the one thing the
/// documented rule says not to do.
struct Bonus: Reducer {
  var body: some Reducer<Int, Void> {
    @Dependency(\.bodyBonus) var bonus
    let builtWith = bonus
    Reduce { state, _ in
      state += 1 + builtWith
      return .none
    }
  }
}

/// Records a fresh id for every action, from a generator made in its body.
struct IDRecorder: Reducer {
  var body: some Reducer<[UUID], Void> {
    Reduce { state, _ in
      @Dependency(\.uuid) var uuid
      state.append(uuid())
      return .none
    }
    .dependency(\.uuid, .incrementing)
  }
}

/// Reads the dependency inside `Reduce`, as the rule says to.
struct LiveBonus: Reducer {
  @Dependency(\.bodyBonus) var bonus

  var body: some Reducer<Int, Void> {
    Reduce { state, _ in
      state += 1 + bonus
      return .none
    }
  }
}

/// Something a reducer captures, to see when it is released.
final class Captured: Sendable {}

/// A reducer holding a reference, in itself and in its body.
struct Holding: Reducer {
  let captured: Captured

  var body: some Reducer<Int, Void> {
    Reduce { [captured] state, _ in
      _ = captured
      state += 1
      return .none
    }
  }
}

/// Calls a child reducer's `reduce` directly, which keeps TCA's plain semantics.
struct CallsDirectly: Reducer {
  let log: BuildLog

  var body: some Reducer<Int, Void> {
    Reduce { state, action in
      Stepper(step: 1, log: log).reduce(into: &state, action: action)
    }
  }
}

/// Logs, as its body is built, whether the reducers made in it are kept.
struct KeptProbe: Reducer {
  let name: String
  let log: BuildLog

  var body: some Reducer<Int, Void> {
    let _ = log.record("\(name) \(ReducerTree.makesKeptReducers ? "kept" : "per call")")
    Reduce { state, _ in
      state += 1
      return .none
    }
  }
}

/// A child in the body, a child under a modifier, and a child called directly.
struct KeptProbes: Reducer {
  let log: BuildLog

  var body: some Reducer<Int, Void> {
    KeptProbe(name: "child", log: log)
    KeptProbe(name: "modified", log: log).dependency(\.bodyBonus, 1)
    Reduce { state, action in
      KeptProbe(name: "direct", log: log).reduce(into: &state, action: action)
    }
  }
}

@MainActor
@Suite struct BuiltReducerTests {
  @Test func valuesMadeInABodyLiveAsLongAsTheStoresTree() async {
    // The generator is made once, with the body, so ids keep counting across actions.
    let store = TestStore(initialState: [UUID]()) { IDRecorder() }
    await store.send(()) { $0 = [UUID(0)] }
    await store.send(()) { $0 = [UUID(0), UUID(1)] }
  }

  @Test func twoStoresOfOneReducerAreIndependent() async {
    let first = TestStore(initialState: [UUID]()) { IDRecorder() }
    await first.send(()) { $0 = [UUID(0)] }
    await first.send(()) { $0 = [UUID(0), UUID(1)] }
    // A second store builds its own body, and its own generator: it starts again at 0.
    let second = TestStore(initialState: [UUID]()) { IDRecorder() }
    await second.send(()) { $0 = [UUID(0)] }
    await first.send(()) { $0 = [UUID(0), UUID(1), UUID(2)] }
  }

  @Test func twoPlainStoresOfOneReducerAreIndependent() {
    // No overrides: both stores run under the same dependency values, the case where a cache per
    // reducer type handed the second store the first one's body.
    let first = Store(initialState: [UUID]()) { IDRecorder() }
    first.send(())
    first.send(())
    let second = Store(initialState: [UUID]()) { IDRecorder() }
    second.send(())
    #expect(first.state == [UUID(0), UUID(1)])
    #expect(second.state == [UUID(0)])
  }

  @Test func oneReducerValueHandedToTwoStoresIsNotShared() {
    // The modifier holds `IDRecorder` in a `_BuiltReducer`, made here, before the stores, so in
    // neither's tree: it runs as in TCA, its body made for each action, and nothing that body
    // makes is left over for the other store.
    let reducer = IDRecorder().dependency(\.bodyBonus, 1)
    let first = Store(initialState: [UUID]()) { reducer }
    let second = Store(initialState: [UUID]()) { reducer }
    first.send(())
    first.send(())
    second.send(())
    #expect(first.state == [UUID(0), UUID(0)])
    #expect(second.state == [UUID(0)])
  }

  @Test func aBodyIsBuiltOnceForManyActions() {
    let log = BuildLog()
    let store = Store(initialState: Nesting.State()) { Nesting(log: log) }
    for _ in 0..<5 {
      store.send(.tap)
      store.send(.child(()))
    }
    #expect(store.state == Nesting.State(child: 10, taps: 5))
    #expect(log.count("Nesting") == 1)
    #expect(log.count("Stepper 2") == 1)
  }

  @Test func eachStoreBuildsItsOwnTreeOnce() {
    let log = BuildLog()
    let ones = Store(initialState: 0) { Stepper(step: 1, log: log) }
    let tens = Store(initialState: 0) { Stepper(step: 10, log: log) }
    let moreOnes = Store(initialState: 0) { Stepper(step: 1, log: log) }
    for _ in 0..<3 {
      ones.send(())
      tens.send(())
      moreOnes.send(())
    }
    #expect(ones.state == 3)
    #expect(tens.state == 30)
    #expect(moreOnes.state == 3)
    #expect(log.count("Stepper 1") == 2)
    #expect(log.count("Stepper 10") == 1)
  }

  @Test func aBodyKeepsWhatItReadWhileBeingBuilt() async {
    // The rule: a body is built once per store, so a value read while building it stays.
    let baked = TestStore(initialState: 0) { Bonus() }
    await baked.send(()) { $0 = 1 }
    baked.dependencies.bodyBonus = 100
    await baked.send(()) { $0 = 2 }

    // Read inside `Reduce`, the dependency follows the store's current values.
    let live = TestStore(initialState: 0) { LiveBonus() }
    await live.send(()) { $0 = 1 }
    live.dependencies.bodyBonus = 100
    await live.send(()) { $0 = 102 }
  }

  @Test func storesWithDifferentDependenciesSeeTheirOwn() {
    let plain = Store(initialState: 0) { Bonus() }
    let boosted = Store(initialState: 0) {
      Bonus()
    } withDependencies: {
      $0.bodyBonus = 10
    }
    plain.send(())
    boosted.send(())
    plain.send(())
    boosted.send(())
    #expect(plain.state == 2)
    #expect(boosted.state == 22)
  }

  @Test func aStoresReducerAndBodyAreReleasedWithTheStore() {
    weak var weakCaptured: Captured?
    weak var weakStore: Store<Int, Void>?
    do {
      let captured = Captured()
      weakCaptured = captured
      let store = Store(initialState: 0) { Holding(captured: captured) }
      weakStore = store
      store.send(())
      store.send(())
      #expect(store.state == 2)
    }
    #expect(weakStore == nil)
    #expect(weakCaptured == nil)
  }

  // `.dependency`, `_printChanges`, `onChange` and `recording` hold the reducer they are applied
  // to, and that reducer's body is built once for the store too, under the dependencies the
  // modifier sets: built for each action, a value made in it started over every time.
  @Test func aBodyUnderAModifierIsBuiltOnce() {
    let log = BuildLog()
    let printed = LockIsolated(0)
    let stores = [
      Store(initialState: 0) { Stepper(step: 1, log: log).dependency(\.bodyBonus, 5) },
      Store(initialState: 0) {
        Stepper(step: 2, log: log).transformDependency(\.bodyBonus) { $0 += 1 }
      },
      Store(initialState: 0) {
        Stepper(step: 3, log: log)._printChanges(.init { _, _, _ in printed.withValue { $0 += 1 } })
      },
      Store(initialState: 0) {
        Stepper(step: 4, log: log).onChange(of: { $0 }) { _, _ in EmptyReducer() }
      },
    ]
    for store in stores {
      for _ in 0..<3 { store.send(()) }
    }
    #expect(stores.map(\.state) == [3, 6, 9, 12])
    #expect(printed.value == 3)
    for step in 1...4 { #expect(log.count("Stepper \(step)") == 1, "step \(step)") }
  }

  // `Feature().ifLet(…)`: the operator holds a reducer with a body, which runs as a body does
  // anywhere in a store's tree.
  @Test func aBodyUnderAnOperatorIsBuiltOnce() {
    typealias Probe = BodyProbe<Pinger.State, Pinger.Action>
    let log = BuildLog()
    let stores = [
      Store(initialState: Pinger.State()) {
        Probe(name: "ifLet", log: log).ifLet(\.detail, action: \.detail) { Pinger.Ping() }
      },
      Store(initialState: Pinger.State()) {
        Probe(name: "presentation", log: log).ifLet(\.$destination, action: \.destination)
      },
      Store(initialState: Pinger.State()) {
        Probe(name: "forEach", log: log).forEach(\.rows, action: \.rows) { Pinger.Ping() }
      },
      Store(initialState: Pinger.State()) {
        Probe(name: "stack", log: log).forEach(\.path, action: \.path)
      },
    ]
    for store in stores {
      for _ in 0..<3 { store.send(.main(.greet)) }
    }
    let screen = Store(initialState: Screen.State.list(Counter.State())) {
      BodyProbe<Screen.State, Screen.Action>(name: "ifCaseLet", log: log)
        .ifCaseLet(\.detail, action: \.detail) { Ticker() }
    }
    for _ in 0..<3 { screen.send(.showList) }
    for name in ["ifLet", "presentation", "forEach", "stack", "ifCaseLet"] {
      #expect(log.count(name) == 1, "\(name)")
    }
  }

  @Test func aBodyUnderAModifierIsBuiltUnderItsDependencies() {
    let store = Store(initialState: 0) { Bonus().dependency(\.bodyBonus, 10) }
    store.send(())
    store.send(())
    #expect(store.state == 22)
  }

  // What operators may remember between actions depends on it (`DirectCallTests`).
  @Test func onlyABodyMadeForOneCallIsNotKept() {
    let log = BuildLog()
    let store = Store(initialState: 0) { KeptProbes(log: log) }
    store.send(())
    store.send(())
    #expect(store.state == 6)
    #expect(log.count("child kept") == 1)
    #expect(log.count("modified kept") == 1)
    #expect(log.count("direct per call") == 2)
    #expect(log.count("direct kept") == 0)
  }

  @Test func aReducerCalledDirectlyBuildsItsBodyForTheCall() {
    let log = BuildLog()
    let store = Store(initialState: 0) { CallsDirectly(log: log) }
    for _ in 0..<3 { store.send(()) }
    #expect(store.state == 3)
    #expect(log.count("Stepper 1") == 3)
  }
}
