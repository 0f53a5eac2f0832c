import ComposableCore
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

/// A body that reads a dependency while it is built, and bakes the value in.
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

@MainActor
@Suite struct BodyCacheTests {
  @Test func valuesMadeInABodyLiveAsLongAsTheBody() async {
    // The generator is made once, with the body, so ids keep counting across actions.
    let store = TestStore(initialState: [UUID]()) { IDRecorder() }
    await store.send(()) { $0 = [UUID(0)] }
    await store.send(()) { $0 = [UUID(0), UUID(1)] }
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

  @Test func reducersOfOneTypeWithDifferentValuesKeepTheirOwnBodies() {
    let log = BuildLog()
    let ones = Store(initialState: 0) { Stepper(step: 1, log: log) }
    let tens = Store(initialState: 0) { Stepper(step: 10, log: log) }
    for _ in 0..<3 {
      ones.send(())
      tens.send(())
    }
    #expect(ones.state == 3)
    #expect(tens.state == 30)
    // Alternating values of one type rebuild, rather than run a stale body.
    #expect(log.count("Stepper 1") == 3)
    #expect(log.count("Stepper 10") == 3)
  }

  @Test func alternatingValuesRebuildAndStillRouteChildActions() {
    let first = BuildLog()
    let second = BuildLog()
    let one = Store(initialState: Nesting.State()) { Nesting(log: first) }
    let two = Store(initialState: Nesting.State()) { Nesting(log: second) }
    for _ in 0..<3 {
      one.send(.child(()))
      two.send(.child(()))
      two.send(.tap)
    }
    #expect(one.state == Nesting.State(child: 6, taps: 0))
    #expect(two.state == Nesting.State(child: 6, taps: 3))
    #expect(first.count("Nesting") == 3)
    #expect(second.count("Nesting") == 3)
  }

  @Test func aBodyIsRebuiltWhenItsDependenciesChange() async {
    let store = TestStore(initialState: 0) { Bonus() }
    await store.send(()) { $0 = 1 }
    store.dependencies.bodyBonus = 100
    await store.send(()) { $0 = 102 }
    store.dependencies.bodyBonus = 0
    await store.send(()) { $0 = 103 }
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
}
