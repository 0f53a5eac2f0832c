import ComposableCore
import ComposableTestSupport
import Foundation

/// A small feature with a synchronous follow-up, a response effect and a value-carrying action.
struct Tally: Reducer {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var label = ""
    var echoes: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case increment
    case incrementAndEcho
    case echo(Int)
    case rename(String)
    case noop
    case delayedEcho
    case forever
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .incrementAndEcho:
      state.count += 1
      return .run { [count = state.count] send in await send(.echo(count)) }
    case .echo(let value):
      state.echoes.append(value)
      return .none
    case .rename(let label):
      state.label = label
      return .send(.echo(label.count))
    case .noop:
      return .none
    case .delayedEcho:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.echo(-1))
      }
    case .forever:
      return .run { _ in
        for await _ in clock.timer(interval: .seconds(1)) {}
      }
    }
  }
}

/// The timer of TCA's tutorials: start, tick every second, stop.
struct Stopwatch: Reducer {
  struct State: Equatable {
    var isRunning = false
    var secondsElapsed = 0
  }

  @CasePathable
  enum Action: Equatable {
    case startButtonTapped
    case stopButtonTapped
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startButtonTapped:
      state.isRunning = true
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .stopButtonTapped:
      state.isRunning = false
      return .cancel(id: CancelID.timer)
    case .tick:
      state.secondsElapsed += 1
      return .none
    }
  }
}

/// A search client, declared the way feature clients are: closures, an unimplemented test value.
struct SearchClient: Sendable {
  var search: @Sendable (_ query: String) async throws -> [String]
}

extension SearchClient: TestDependencyKey {
  static let testValue = SearchClient(search: unimplemented("SearchClient.search", placeholder: []))
}

extension DependencyValues {
  var searchClient: SearchClient {
    get { self[SearchClient.self] }
    set { self[SearchClient.self] = newValue }
  }
}

/// A debounced search, written as in TCA's case studies.
struct SearchFeature: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var errorMessage: String?
  }

  @CasePathable
  enum Action: Equatable {
    case queryChanged(String)
    case searchResponse(Result<[String], SearchError>)
  }

  struct SearchError: Error, Equatable {
    var message: String
  }

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.searchClient) var searchClient

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      guard !query.isEmpty else {
        state.results = []
        return .cancel(id: CancelID.search)
      }
      return .run { send in
        do {
          await send(.searchResponse(.success(try await searchClient.search(query))))
        } catch {
          await send(.searchResponse(.failure(SearchError(message: "\(error)"))))
        }
      }
      .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
    case .searchResponse(.success(let results)):
      state.results = results
      state.errorMessage = nil
      return .none
    case .searchResponse(.failure(let error)):
      state.errorMessage = error.message
      return .none
    }
  }
}

struct SearchUnavailable: Error, CustomStringConvertible {
  var description: String { "search is unavailable" }
}

/// A test store of `Tally` whose clock is `clock`.
@MainActor
func makeTallyStore(clock: TestClock<Duration> = TestClock()) -> TestStoreOf<Tally> {
  TestStore(initialState: Tally.State()) {
    Tally()
  } withDependencies: {
    $0.continuousClock = clock
  }
}

/// A test store of `Stopwatch` whose clock is `clock`.
@MainActor
func makeStopwatchStore(clock: TestClock<Duration>) -> TestStoreOf<Stopwatch> {
  TestStore(initialState: Stopwatch.State()) {
    Stopwatch()
  } withDependencies: {
    $0.continuousClock = clock
  }
}
