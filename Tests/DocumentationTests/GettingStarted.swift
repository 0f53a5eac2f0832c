import ComposableTestSupport
import Testing

// The code of the Getting started article (ComposableCore.docc/GettingStarted.md), as it is
// there. `ArticleCodeTests` checks that every block of every article is in a file here.

@DependencyClient
struct FactClient: Sendable {
  var fetch: @Sendable (_ number: Int) async throws -> String
}

extension FactClient: TestDependencyKey {
  static let testValue = FactClient()
}

extension DependencyValues {
  var fact: FactClient {
    get { self[FactClient.self] }
    set { self[FactClient.self] = newValue }
  }
}

@Reducer
struct Counter {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var fact: String?
  }

  enum Action: Equatable {
    case incrementButtonTapped
    case factButtonTapped
    case factResponse(String)
  }

  @Dependency(\.fact) var fact

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .factButtonTapped:
        return .run { [count = state.count] send in
          await send(.factResponse(try await fact.fetch(count)))
        }
      case .factResponse(let fact):
        state.fact = fact
        return .none
      }
    }
  }
}

@MainActor
struct CounterTests {
  @Test func fact() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.fact.fetch = { "\($0) is a good number" }
    }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(\.factButtonTapped)
    await store.receive(\.factResponse, "1 is a good number") { $0.fact = "1 is a good number" }
  }

  @Test func aStoreRunsTheFeature() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped)
    #expect(store.count == 1)
  }
}
