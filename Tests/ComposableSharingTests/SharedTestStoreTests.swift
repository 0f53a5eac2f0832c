import ComposableTestSupport
import Testing

@Reducer
struct Tally {
  @ObservableState
  struct State: Equatable {
    @Shared(.inMemory("total")) var total = 0
    var local = 0
  }

  enum Action: Equatable {
    case incrementTotal
    case incrementBoth
    case incrementLater
    case incremented
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementTotal:
        state.$total.withLock { $0 += 1 }
        return .none
      case .incrementBoth:
        state.local += 1
        state.$total.withLock { $0 += 1 }
        return .none
      case .incrementLater:
        return .send(.incremented)
      case .incremented:
        state.$total.withLock { $0 += 10 }
        return .none
      }
    }
  }
}

@MainActor
struct SharedTestStoreTests {
  @Test func aSharedChangeIsAssertedLikeState() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementTotal) {
      $0.$total.withLock { $0 = 1 }
    }
    await store.send(.incrementBoth) {
      $0.local = 1
      $0.$total.withLock { $0 = 2 }
    }
    #expect(store.state.total == 2)
  }

  @Test func aReceivedActionsSharedChangeIsAssertedThen() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementLater)
    await store.receive(.incremented) {
      $0.$total.withLock { $0 = 10 }
    }
  }

  @Test func anUnassertedSharedChangeFails() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.incrementTotal)
    } matching: { issue in
      issue.description.contains("Shared state was not expected to change")
        && issue.description.contains(".inMemory(\"total\")")
        && issue.description.contains("− 0") && issue.description.contains("+ 1")
    }
    #expect(store.state.total == 1)
  }

  @Test func aWrongSharedAssertionFailsWithADiff() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await withKnownIssue {
      await store.send(.incrementBoth) {
        $0.local = 1
        $0.$total.withLock { $0 = 5 }
      }
    } matching: { issue in
      issue.description.contains("A shared state change does not match expectation")
        && issue.description.contains("− 5") && issue.description.contains("+ 1")
    }
    // The store goes on with what really happened.
    #expect(store.state.total == 1)
  }

  @Test func assertingASharedChangeThatDidNotHappenFails() async {
    let store = TestStore(initialState: Tally.State(local: 0)) { Tally() }
    await store.send(.incrementTotal) { $0.$total.withLock { $0 = 1 } }
    await withKnownIssue {
      await store.send(.incrementLater) {
        $0.$total.withLock { $0 = 7 }
      }
      await store.receive(.incremented) { $0.$total.withLock { $0 = 11 } }
    } matching: { issue in
      issue.description.contains("A shared state change does not match expectation")
    }
    #expect(store.state.total == 11)
  }

  @Test func nonExhaustiveStoresSkipUnassertedSharedChanges() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.exhaustivity = .off
    await store.send(.incrementBoth) { $0.local = 1 }
    #expect(store.state.total == 1)
  }

  @Test func sharedStateIsObservedThroughTheStore() {
    let store = Store(initialState: Tally.State()) { Tally() }
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = store.total
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    store.send(.incrementTotal)
    #expect(changes.value == 1)
    #expect(store.total == 1)
  }
}

@MainActor
struct SharedTestStoreAssertTests {
  @Test func assertChecksSharedValuesWithoutChangingThem() async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    await store.send(.incrementTotal) { $0.$total.withLock { $0 = 1 } }
    store.assert { $0.$total.withLock { $0 = 1 } }
    withKnownIssue {
      store.assert { $0.$total.withLock { $0 = 3 } }
    } matching: { issue in
      issue.description.contains("Shared state does not match expectation")
    }
    #expect(store.state.total == 1)
  }
}
