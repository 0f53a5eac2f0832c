@_spi(Internals) import ComposableCore
import ComposableTestSupport
import Foundation
import Testing

/// A search whose request runs under an id inside its effect, as TCA's examples debounce and
/// replace requests with `withTaskCancellation(id:cancelInFlight:)`.
@Reducer
struct Searcher {
  struct State: Equatable, Identifiable {
    let id: Int
    var results: [String] = []
    var interruptions = 0
  }

  enum Action: Equatable {
    case queryChanged(String)
    case response(String)
    case interrupted
    case stopButtonTapped
    case stopFromAnEffect
  }

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      return .run { send in
        do {
          let results = try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
            try await clock.sleep(for: .seconds(1))
            return "results for \(query)"
          }
          await send(.response(results))
        } catch {
          // Only the operation was cancelled: the effect around it goes on.
          await send(.interrupted)
        }
      }
    case .response(let results):
      state.results.append(results)
      return .none
    case .interrupted:
      state.interruptions += 1
      return .none
    case .stopButtonTapped:
      return .cancel(id: CancelID.search)
    case .stopFromAnEffect:
      return .run { _ in Task.cancel(id: CancelID.search) }
    }
  }
}

@Reducer
struct SearcherList {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Searcher.State> = []
  }

  enum Action: Equatable {
    case rows(IdentifiedActionOf<Searcher>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.rows, action: \.rows) { Searcher() }
  }
}

@MainActor
struct TaskCancellationTests {
  func makeStore(clock: TestClock<Duration>) -> TestStoreOf<Searcher> {
    TestStore(initialState: Searcher.State(id: 0)) {
      Searcher()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aNewOperationCancelsTheOneInFlight() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("a"))
    await clock.advance(by: .milliseconds(500))
    await store.send(.queryChanged("ab"))
    await store.receive(.interrupted) { $0.interruptions = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.response("results for ab")) { $0.results = ["results for ab"] }
  }

  /// By the feature returning `.cancel(id:)`, and by `Task.cancel(id:)` inside another effect.
  @Test(arguments: [Searcher.Action.stopButtonTapped, .stopFromAnEffect])
  func theOperationIsCancelledByItsId(stop: Searcher.Action) async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await store.send(.queryChanged("a"))
    await store.send(stop)
    await store.receive(.interrupted) { $0.interruptions = 1 }
    await clock.advance(by: .seconds(5))
  }

  @Test func rowsUsingTheSameIdDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = TestStore(initialState: SearcherList.State(rows: [.init(id: 1), .init(id: 2)])) {
      SearcherList()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.rows(.element(id: 1, action: .queryChanged("a"))))
    await store.send(.rows(.element(id: 2, action: .queryChanged("b"))))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .response("results for a")))) {
      $0.rows[id: 1]?.results = ["results for a"]
    }
    await store.receive(.rows(.element(id: 2, action: .response("results for b")))) {
      $0.rows[id: 2]?.results = ["results for b"]
    }
  }

  @Test func anOperationIsTheStoresOwnAndIsForgottenOnceItEnds() async throws {
    let clock = TestClock()
    let store = Store(initialState: Searcher.State(id: 0)) {
      Searcher()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let core = try #require(store.core as? RootCore<Searcher>)
    let searching = store.send(.queryChanged("a"))
    await eventually { core.cancellableOperationCount > 0 }
    // The same id, outside every store, is another table's: the store's operation runs on.
    Task.cancel(id: Searcher.CancelID.search)
    #expect(!isListedOutsideStores(Searcher.CancelID.search))
    await clock.advance(by: .seconds(1))
    await searching.finish()
    #expect(store.state.results == ["results for a"])
    #expect(store.state.interruptions == 0)
    // Listed while it ran, and no longer: an effect that runs for the app's lifetime and
    // searches on every keystroke leaves nothing behind.
    #expect(core.cancellableOperationCount == 0)
  }

  @Test
  func outsideEveryStoreAnOperationIsCancelledByItsID() async {
    let id = UUID()
    let (started, didStart) = AsyncStream.makeStream(of: Void.self)
    let operation = Task {
      try await withTaskCancellation(id: id) {
        didStart.yield()
        try await Task.never()
      }
    }
    for await _ in started { break }
    #expect(isListedOutsideStores(id))
    Task.cancel(id: id)
    await #expect(throws: CancellationError.self) { try await operation.value }
    // Taken off as it ends: nothing is left behind in the table.
    #expect(!isListedOutsideStores(id))
  }

  private func isListedOutsideStores(_ id: some Hashable & Sendable) -> Bool {
    _cancellationCancellables.withValue { $0.exists(at: id, path: NavigationIDPath()) }
  }
}
