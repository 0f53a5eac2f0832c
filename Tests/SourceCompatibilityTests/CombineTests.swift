import ComposableTestSupport
import Foundation
import Testing

// Combine-era TCA code, as the seeds and older TCA documentation write it: `mainQueue`
// schedulers, `TaskResult`, publishers as effects. Only the imports differ; on Apple platforms
// the conditional import below brings in Combine itself.
#if canImport(Combine)
  import Combine
#endif

struct SearchClient: Sendable {
  var search: @Sendable (String) async throws -> [String]
}

extension SearchClient: DependencyKey {
  static let liveValue = SearchClient { _ in [] }
  static let testValue = SearchClient { query in ["\(query) 1", "\(query) 2"] }
}

extension DependencyValues {
  var searchClient: SearchClient {
    get { self[SearchClient.self] }
    set { self[SearchClient.self] = newValue }
  }
}

struct SearchError: Error, Equatable {}

@Reducer
struct Search {
  @ObservableState
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var ticks = 0
    var isTimerRunning = false
  }

  enum Action: Equatable {
    case queryChanged(String)
    case searchResponse(TaskResult<[String]>)
    case timerTicked
    case toggleTimerButtonTapped
    case typed(String)
    case debouncedSearch(String)
  }

  enum CancelID { case search, typing, timer }

  @Dependency(\.mainQueue) var mainQueue
  @Dependency(\.searchClient) var searchClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .queryChanged(query):
        state.query = query
        return .run { send in
          await send(.searchResponse(TaskResult { try await searchClient.search(query) }))
        }
        .debounce(id: CancelID.search, for: .milliseconds(300), scheduler: mainQueue)

      case let .searchResponse(.success(results)):
        state.results = results
        return .none

      case .searchResponse(.failure):
        state.results = []
        return .none

      case .timerTicked:
        state.ticks += 1
        return .none

      case .toggleTimerButtonTapped:
        state.isTimerRunning.toggle()
        guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
        return .run { send in
          for await _ in mainQueue.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer)

      // The seeds' hand-written debounce: sleep on the queue, cancel in flight.
      case let .typed(text):
        state.query = text
        return .run { send in
          try await mainQueue.sleep(for: .milliseconds(300))
          await send(.debouncedSearch(text))
        }
        .cancellable(id: CancelID.typing, cancelInFlight: true)

      case .debouncedSearch:
        return .none
      }
    }
  }
}

/// Saves a draft a moment after the last keystroke: a debounced `.send`, as Combine-era code
/// wrote one.
@Reducer
struct Draft {
  struct State: Equatable {
    var text = ""
    var saved = ""
  }

  enum Action: Equatable {
    case typed(String)
    case save
  }

  enum CancelID { case save }

  @Dependency(\.mainQueue) var mainQueue

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .typed(let text):
      state.text = text
      return .send(.save).debounce(id: CancelID.save, for: .seconds(1), scheduler: mainQueue)
    case .save:
      state.saved = state.text
      return .none
    }
  }
}

/// A stream of numbers from outside, as a Combine publisher.
struct NumbersClient: Sendable {
  var numbers: @Sendable () -> AnyPublisher<Int, Never>
}

extension NumbersClient: TestDependencyKey {
  static let testValue = NumbersClient { Empty().eraseToAnyPublisher() }
}

extension DependencyValues {
  var numbersClient: NumbersClient {
    get { self[NumbersClient.self] }
    set { self[NumbersClient.self] = newValue }
  }
}

@Reducer
struct Listener {
  @ObservableState
  struct State: Equatable {
    var received: [Int] = []
  }

  enum Action: Equatable {
    case numberReceived(Int)
    case startButtonTapped
    case stopButtonTapped
    case throttledTapped(Int)
  }

  enum CancelID { case numbers, throttle }

  @Dependency(\.numbersClient) var numbersClient
  @Dependency(\.mainQueue) var mainQueue

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .numberReceived(number):
        state.received.append(number)
        return .none
      case .startButtonTapped:
        return .publisher {
          numbersClient.numbers().map(Action.numberReceived)
        }
        .cancellable(id: CancelID.numbers)
      case .stopButtonTapped:
        return .cancel(id: CancelID.numbers)
      case let .throttledTapped(number):
        return .send(.numberReceived(number))
          .throttle(id: CancelID.throttle, for: .seconds(1), scheduler: mainQueue, latest: true)
      }
    }
  }
}

@Reducer
struct ListenerHost {
  @ObservableState
  struct State: Equatable {
    @Presents var listener: Listener.State?
  }

  enum Action: Equatable {
    case listener(PresentationAction<Listener.Action>)
    case showButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showButtonTapped:
        state.listener = Listener.State()
        return .none
      case .listener:
        return .none
      }
    }
    .ifLet(\.$listener, action: \.listener) { Listener() }
  }
}

/// A subject the test drives, handed to the feature as its publisher of numbers.
final class Numbers: @unchecked Sendable {
  // Unchecked: only touched from the test, on the main actor.
  let subject = PassthroughSubject<Int, Never>()
  var client: NumbersClient {
    NumbersClient { self.subject.eraseToAnyPublisher() }
  }
}

/// A live store of `Listener` whose numbers come from `client`.
@MainActor
func liveListener(_ client: NumbersClient) -> StoreOf<Listener> {
  Store(initialState: Listener.State()) {
    Listener()
  } withDependencies: {
    $0.numbersClient = client
  }
}

/// A test store of `Listener` whose numbers come from `client`.
@MainActor
func testListener(_ client: NumbersClient) -> TestStoreOf<Listener> {
  TestStore(initialState: Listener.State()) {
    Listener()
  } withDependencies: {
    $0.numbersClient = client
  }
}

@MainActor
struct CombineTests {
  @Test
  func searchDebouncedOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.queryChanged("c")) { $0.query = "c" }
    await mainQueue.advance(by: .milliseconds(200))
    await store.send(.queryChanged("co")) { $0.query = "co" }
    await mainQueue.advance(by: .milliseconds(200))
    await store.send(.queryChanged("com")) { $0.query = "com" }
    await mainQueue.advance(by: .milliseconds(300))
    await store.receive(\.searchResponse.success) {
      $0.results = ["com 1", "com 2"]
    }
  }

  /// As in TCA, the scheduler sends a debounced action itself: a store sees it as soon as the
  /// queue is advanced, with no task left to wait for.
  @Test
  func aDebouncedSendArrivesInsideAdvance() {
    let mainQueue = DispatchQueue.test
    let store = Store(initialState: Draft.State()) {
      Draft()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    store.send(.typed("a"))
    mainQueue.advance(by: .milliseconds(500))
    store.send(.typed("ab"))
    mainQueue.advance(by: .milliseconds(500))
    #expect(store.state.saved == "")
    mainQueue.advance(by: .milliseconds(500))
    #expect(store.state.saved == "ab")
    store.send(.typed("abc"))
    mainQueue.advance(by: .seconds(1))
    #expect(store.state.saved == "abc")
  }

  @Test
  func aFailedSearchIsATaskResultFailure() async {
    let store = TestStore(initialState: Search.State(results: ["old"])) {
      Search()
    } withDependencies: {
      $0.mainQueue = .immediate
      $0.searchClient.search = { _ in throw SearchError() }
    }
    await store.send(.queryChanged("x")) { $0.query = "x" }
    await store.receive(.searchResponse(.failure(SearchError()))) {
      $0.results = []
    }
  }

  @Test
  func aHandWrittenDebounceSleepsOnTheQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.typed("a")) { $0.query = "a" }
    await mainQueue.advance(by: .milliseconds(100))
    await store.send(.typed("ab")) { $0.query = "ab" }
    await mainQueue.advance(by: .milliseconds(300))
    await store.receive(.debouncedSearch("ab"))
  }

  @Test
  func aTimerOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
    await mainQueue.advance(by: .seconds(3))
    await store.receive(.timerTicked) { $0.ticks = 1 }
    await store.receive(.timerTicked) { $0.ticks = 2 }
    await store.receive(.timerTicked) { $0.ticks = 3 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
  }

  /// A publisher that completes on the main queue is done at once, as in TCA: the test can end
  /// right after, with no effect left running.
  @Test
  func aCompletedPublisherIsDoneAtOnce() async {
    let numbers = Numbers()
    let store = testListener(numbers.client)
    await store.send(.startButtonTapped)
    numbers.subject.send(1)
    await store.receive(.numberReceived(1)) { $0.received = [1] }
    numbers.subject.send(completion: .finished)
  }

  /// Subscribers of a store's publisher hear of each change in the order they subscribed, as
  /// a subject's do, also once an earlier one has cancelled.
  @Test
  func subscribersHearInTheOrderTheySubscribed() {
    let store = Store(initialState: 0) {
      Reduce<Int, Void> { state, _ in
        state += 1
        return .none
      }
    }
    var heard: [String] = []
    let first = store.publisher.sink { _ in heard.append("first") }
    let second = store.publisher.sink { _ in heard.append("second") }
    let third = store.publisher.sink { _ in heard.append("third") }
    heard = []
    store.send(())
    #expect(heard == ["first", "second", "third"])
    first.cancel()
    let fourth = store.publisher.sink { _ in heard.append("fourth") }
    heard = []
    store.send(())
    #expect(heard == ["second", "third", "fourth"])
    withExtendedLifetime((second, third, fourth)) {}
  }

  /// The UIKit-era way to show a child: `then` each time the state becomes non-`nil`, `else`
  /// each time it becomes `nil`, starting now.
  @Test
  func ifLetUnwrapsEachTimeTheStateAppears() {
    let store = Store(initialState: Int?.none) {
      Reduce<Int?, Int?> { state, action in
        state = action
        return .none
      }
    }
    var shown: [Int?] = []
    var children: [Store<Int, Int?>] = []
    let cancellable = store.ifLet { child in
      children.append(child)
      shown.append(child.state)
    } else: {
      shown.append(nil)
    }
    #expect(shown == [nil])
    store.send(1)
    store.send(2)
    #expect(shown == [nil, 1])
    #expect(children.last?.state == 2)
    store.send(nil)
    #expect(shown == [nil, 1, nil])
    // Gone, the child's store still reads the last state it had.
    #expect(children.last?.state == 2)
    store.send(3)
    #expect(shown == [nil, 1, nil, 3])
    cancellable.cancel()
    store.send(nil)
    #expect(shown == [nil, 1, nil, 3])
  }

  @Test
  func aPublisherEffectCancelledByID() async {
    let numbers = Numbers()
    let store = testListener(numbers.client)
    await store.send(.startButtonTapped)
    numbers.subject.send(1)
    await store.receive(.numberReceived(1)) { $0.received = [1] }
    numbers.subject.send(2)
    await store.receive(.numberReceived(2)) { $0.received = [1, 2] }
    await store.send(.stopButtonTapped)
    numbers.subject.send(3)
    await store.finish()
  }

  @Test
  func aPublisherEffectEndsWithItsPublisher() async {
    let numbers = Numbers()
    let store = testListener(numbers.client)
    let task = await store.send(.startButtonTapped)
    numbers.subject.send(7)
    await store.receive(.numberReceived(7)) { $0.received = [7] }
    numbers.subject.send(completion: .finished)
    await task.finish()
  }

  @Test
  func aPublisherEffectCancelledByDismissal() async {
    let numbers = Numbers()
    let store = TestStore(initialState: ListenerHost.State()) {
      ListenerHost()
    } withDependencies: {
      $0.numbersClient = numbers.client
    }
    await store.send(.showButtonTapped) { $0.listener = Listener.State() }
    await store.send(.listener(.presented(.startButtonTapped)))
    numbers.subject.send(1)
    await store.receive(.listener(.presented(.numberReceived(1)))) {
      $0.listener?.received = [1]
    }
    await store.send(.listener(.dismiss)) { $0.listener = nil }
    numbers.subject.send(2)
    await store.finish()
  }

  @Test
  func throttledOnTheMainQueue() async {
    let mainQueue = DispatchQueue.test
    let store = TestStore(initialState: Listener.State()) {
      Listener()
    } withDependencies: {
      $0.mainQueue = mainQueue.eraseToAnyScheduler()
    }
    await store.send(.throttledTapped(1))
    await store.receive(.numberReceived(1)) { $0.received = [1] }
    await store.send(.throttledTapped(2))
    await store.send(.throttledTapped(3))
    await mainQueue.advance(by: .seconds(1))
    await store.receive(.numberReceived(3)) { $0.received = [1, 3] }
  }

  /// As in TCA, a publisher effect subscribes inside `send`: a value published on the main queue
  /// right after is handled before `subject.send` returns, and a cancelled one hears no more.
  @Test
  func aPublisherEffectSubscribesInsideSend() {
    let numbers = Numbers()
    let store = liveListener(numbers.client)
    store.send(.startButtonTapped)
    numbers.subject.send(1)
    #expect(store.state.received == [1])
    store.send(.stopButtonTapped)
    numbers.subject.send(2)
    #expect(store.state.received == [1])
  }

  /// A publisher that publishes as it is subscribed to is handled inside `send`, and one that
  /// completes then leaves nothing running.
  @Test
  func aPublisherDoneAtOnceIsDoneInsideSend() async {
    let store = liveListener(NumbersClient { [3, 4].publisher.eraseToAnyPublisher() })
    let task = store.send(.startButtonTapped)
    #expect(store.state.received == [3, 4])
    #expect(task.isCancelled)
    await task.finish()
  }

  /// Values published on another thread reach the store through the effect's task, in order,
  /// and the effect ends with the publisher.
  @Test
  func aPublisherOnAnotherThreadIsHeard() async {
    let numbers = Numbers()
    let store = liveListener(numbers.client)
    let task = store.send(.startButtonTapped)
    let subject = UncheckedSendable(numbers.subject)
    await withCheckedContinuation { (published: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        for number in 1...5 { subject.value.send(number) }
        subject.value.send(completion: .finished)
        published.resume()
      }
    }
    await task.finish()
    #expect(store.state.received == [1, 2, 3, 4, 5])
  }

  @Test
  func theStoresStatesAsAPublisher() {
    let store = Store(initialState: Listener.State()) { Listener() }
    var received: [[Int]] = []
    var states: [[Int]] = []
    let fieldSubscription = store.publisher.received.sink { received.append($0) }
    let stateSubscription = store.publisher.sink { states.append($0.received) }
    store.send(.numberReceived(4))
    store.send(.stopButtonTapped)
    store.send(.numberReceived(5))
    // A field publishes only when it changes; the whole state after every action.
    #expect(received == [[], [4], [4, 5]])
    #expect(states == [[], [4], [4], [4, 5]])
    fieldSubscription.cancel()
    stateSubscription.cancel()
  }

  @Test
  func theMainQueueIsUnimplementedInTests() async {
    let store = TestStore(initialState: Search.State()) {
      Search()
    }
    await withKnownIssue {
      await store.send(.typed("a")) { $0.query = "a" }
      await store.finish()
    }
  }
}
