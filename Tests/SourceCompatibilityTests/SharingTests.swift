// Shared state as swift-sharing spells it: keys that load, subscribe and save through
// continuations, keys with defaults, loading state, `require:`, unwrapped and per-element
// shared values, and the test store's check for shared changes nobody asserted.
import ComposableTestSupport
import Foundation
import Testing

/// A score kept by a server the test plays: what it stores, what it was asked to store, and a
/// way to push a change as another client would.
final class ScoreServer: Sendable {
  let stored = LockIsolated<Int?>(nil)
  let saved = LockIsolated<[Int]>([])
  let subscribers = LockIsolated<[SharedSubscriber<Int>]>([])
  /// While set, loads wait here until the test resumes them.
  let holdLoads = LockIsolated(false)
  let heldLoads = LockIsolated<[LoadContinuation<Int>]>([])
  /// Tells the test each time a load is held.
  let loadHeld = AsyncStream.makeStream(of: Void.self)
  let failSaves = LockIsolated(false)

  struct Unavailable: Error, Equatable {}

  func push(_ score: Int) {
    stored.setValue(score)
    for subscriber in subscribers.value { subscriber.yield(score) }
  }
}

/// A key written the way swift-sharing's documentation writes a custom strategy.
struct ScoreKey: SharedKey, Hashable {
  let server: ScoreServer

  var id: ObjectIdentifier { ObjectIdentifier(server) }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.server === rhs.server }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    if server.holdLoads.value {
      server.heldLoads.withValue { $0.append(continuation) }
      server.loadHeld.continuation.yield()
    } else {
      continuation.resume(with: .success(server.stored.value))
    }
  }

  func subscribe(
    context: LoadContext<Int>, subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    server.subscribers.withValue { $0.append(subscriber) }
    return SharedSubscription { [server] in server.subscribers.setValue([]) }
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    guard !server.failSaves.value else {
      return continuation.resume(throwing: ScoreServer.Unavailable())
    }
    server.saved.withValue { $0.append(value) }
    server.stored.setValue(value)
    continuation.resume()
  }
}

private enum ScoreServerKey: DependencyKey {
  static var liveValue: ScoreServer { ScoreServer() }
  static var testValue: ScoreServer { ScoreServer() }
}

extension DependencyValues {
  var scoreServer: ScoreServer {
    get { self[ScoreServerKey.self] }
    set { self[ScoreServerKey.self] = newValue }
  }
}

extension SharedKey where Self == ScoreKey.Default {
  /// The score, 0 until the server has one.
  static var score: Self {
    @Dependency(\.scoreServer) var server
    return Self[ScoreKey(server: server), default: 0]
  }
}

extension SharedKey where Self == InMemoryKey<Int>.Default {
  static var visits: Self { Self[.inMemory("visits"), default: 0] }
}

@Reducer
struct Scoreboard {
  @ObservableState
  struct State: Equatable {
    @Shared(.score) var score
    @Shared(.visits) var visits
  }
  enum Action: Equatable {
    case goalTapped
    case refreshTapped
    case refreshed(failed: Bool)
    case visitedInBackground
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .goalTapped:
        state.$score.withLock { $0 += 1 }
        return .none
      case .refreshTapped:
        return .run { [score = state.$score] send in
          do {
            try await score.load()
            await send(.refreshed(failed: false))
          } catch {
            await send(.refreshed(failed: true))
          }
        }
      case .refreshed:
        return .none
      case .visitedInBackground:
        // Changed by the effect, after the action: the next step, or `assert`, accounts for it.
        return .run { [visits = state.$visits] _ in visits.withLock { $0 += 1 } }
      }
    }
  }
}

@MainActor
struct SharingKeysTests {
  @Test func aCustomKeyLoadsSavesAndFollowsTheServer() async {
    let server = ScoreServer()
    server.stored.setValue(7)
    let store = withDependencies {
      $0.scoreServer = server
    } operation: {
      TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    }
    #expect(store.state.score == 7)

    await store.send(.goalTapped) {
      $0.$score.withLock { $0 = 8 }
    }
    #expect(server.saved.value == [8])

    // Another client scores; the refresh's load brings nothing new, and the push already did.
    server.push(10)
    #expect(store.state.score == 10)
    await store.send(.refreshTapped)
    await store.receive(.refreshed(failed: false))
  }

  @Test func aLoadWaitsForItsContinuationAndKeepsItsError() async throws {
    let server = ScoreServer()
    server.holdLoads.setValue(true)
    try await withDependencies {
      $0.scoreServer = server
    } operation: {
      @Shared(.score) var score
      #expect($score.isLoading)
      #expect(score == 0)
      server.heldLoads.value[0].resume(throwing: ScoreServer.Unavailable())
      #expect(!$score.isLoading)
      #expect($score.loadError as? ScoreServer.Unavailable == ScoreServer.Unavailable())

      let reload = Task { [$score] in try await $score.load() }
      var held = server.loadHeld.stream.makeAsyncIterator()
      _ = await held.next()  // the holder's first load
      _ = await held.next()  // the reload
      #expect($score.isLoading)
      server.heldLoads.value[1].resume(returning: 3)
      try await reload.value
      #expect(!$score.isLoading)
      #expect($score.loadError == nil)
      #expect(score == 3)
    }
  }

  @Test func aSaveErrorStaysUntilASaveSucceeds() async throws {
    let server = ScoreServer()
    try await withDependencies {
      $0.scoreServer = server
    } operation: {
      @Shared(.score) var score
      server.failSaves.setValue(true)
      $score.withLock { $0 = 1 }
      #expect($score.saveError is ScoreServer.Unavailable)
      await #expect(throws: ScoreServer.Unavailable.self) { try await $score.save() }

      server.failSaves.setValue(false)
      try await $score.save()
      #expect($score.saveError == nil)
      #expect(server.saved.value == [1])
    }
  }

  @Test func defaultsGiveTheFirstHolderItsValue() {
    @Shared(.visits) var visits
    #expect(visits == 0)
    // A value at the holder wins over the key's default, but only for the first holder.
    @Shared(.inMemory("laps")) var laps = 3
    @Shared(InMemoryKey<Int>.Default[.inMemory("laps"), default: 9]) var sameLaps
    #expect(sameLaps == 3)
    #expect(InMemoryKey<Int>.Default.visits.initialValue == 0)
  }

  /// TCA's examples keep files in the documents directory: here, the app's data directory.
  @Test func aDocumentsFileKeyPortsUnchanged() throws {
    let url = URL.documentsDirectory.appending(component: "players.json")
    #expect(url.path.hasSuffix("/composable/players.json"))
    @Shared(.fileStorage(.documentsDirectory.appending(component: "players.json"))) var names =
      ["Blob"]
    $names.withLock { $0.append("Blob Jr.") }
    #expect($names.description.hasPrefix("Shared<Array<String>>(.fileStorage(file:///"))
  }

  @Test func requireThrowsWhenNothingIsStored() async throws {
    await #expect(throws: SharedLoadError.self) {
      _ = try await Shared<Int>(require: .inMemory("missing"))
    }
    @Shared(.inMemory("present")) var present = 5
    let required = try await SharedReader<Int>(require: .inMemory("present"))
    #expect(required.wrappedValue == 5)
  }

  @Test func anOptionalUnwrapsAndACollectionSplitsByID() {
    @Shared(value: nil) var maybe: Int?
    #expect(Shared($maybe) == nil)
    $maybe.withLock { $0 = 1 }
    let unwrapped = Shared($maybe)
    unwrapped?.withLock { $0 += 1 }
    #expect(maybe == 2)

    struct Player: Identifiable, Equatable {
      let id: Int
      var goals = 0
    }
    @Shared(value: IdentifiedArrayOf<Player>(uniqueElements: [Player(id: 1), Player(id: 2)]))
    var players
    let second = Shared($players[id: 2])
    #expect(second?.wrappedValue == Player(id: 2))
    #expect(Shared($players[id: 3]) == nil)
    let each = Array($players)
    each[1].withLock { $0.goals += 1 }
    #expect(players[id: 2]?.goals == 1)
    // A `let` member reads through a reader.
    let id: SharedReader<Int> = each[0].id
    #expect(id.wrappedValue == 1)
    #expect($players.description.hasPrefix("Shared<IdentifiedArray<Int, Player>>(value: "))
  }
}

@MainActor
struct SharedChangesAtTheEndTests {
  @Test func anUnassertedEffectChangeFailsOnRelease() async {
    await withKnownIssue {
      let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
      await store.send(.visitedInBackground)
      await store.finish()
    } matching: { issue in
      issue.description.contains(
        "Test store finished before asserting against changes to shared state: .inMemory(\"visits\")"
      ) && issue.description.contains("− 0\n  + 1")
        && issue.description.contains(
          "Invoke \"TestStore.assert\" at the end of this test to assert against changes to shared state."
        )
    }
  }

  @Test func assertAfterFinishAccountsForAnEffectsChange() async {
    let store = TestStore(initialState: Scoreboard.State()) { Scoreboard() }
    await store.send(.visitedInBackground)
    await store.finish()
    store.assert {
      $0.$visits.withLock { $0 = 1 }
    }
  }
}

/// Keeps each number of visits it hears of through the shared value's publisher.
@Reducer
struct VisitsMirror {
  struct State: Equatable {
    @Shared(.visits) var visits
    var seen: [Int] = []
  }
  enum Action: Equatable {
    case onAppear
    case visitsChanged(Int)
    case stop
  }
  enum CancelID { case visits }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        return .publisher { [visits = state.$visits] in
          visits.publisher.dropFirst().map(Action.visitsChanged)
        }
        .cancellable(id: CancelID.visits)
      case .visitsChanged(let visits):
        state.seen.append(visits)
        return .none
      case .stop:
        return .cancel(id: CancelID.visits)
      }
    }
  }
}

/// `$value.publisher`, as swift-sharing offers it where Combine is: the value now, then each
/// change, wherever it comes from.
struct SharedPublisherTests {
  @Test func publishesTheValueThenEachChange() {
    @Shared(value: 0) var count
    let values = LockIsolated<[Int]>([])
    let cancellable = $count.publisher.sink { value in values.withValue { $0.append(value) } }
    $count.withLock { $0 += 1 }
    let other = $count
    other.withLock { $0 = 5 }
    #expect(values.value == [0, 1, 5])

    cancellable.cancel()
    $count.withLock { $0 += 1 }
    #expect(values.value == [0, 1, 5])
  }

  @Test func aPartPublishesItsValue() {
    struct Pair: Equatable {
      var first = 0
      var second = 0
    }
    @Shared(value: Pair()) var pair
    let firsts = LockIsolated<[Int]>([])
    let cancellable = $pair.first.publisher.sink { value in firsts.withValue { $0.append(value) } }
    $pair.first.withLock { $0 = 2 }
    $pair.second.withLock { $0 = 3 }
    #expect(firsts.value == [0, 2, 2])
    _ = cancellable
  }

  @Test func aChangeFromTheServerIsPublished() {
    let server = ScoreServer()
    withDependencies {
      $0.scoreServer = server
    } operation: {
      @SharedReader(.score) var score
      let scores = LockIsolated<[Int]>([])
      let cancellable = $score.publisher.sink { value in scores.withValue { $0.append(value) } }
      server.push(4)
      #expect(scores.value == [0, 4])
      _ = cancellable
    }
  }

  @Test func aStoreSubscribesThroughAnEffect() async {
    let store = await TestStore(initialState: VisitsMirror.State()) { VisitsMirror() }
    await store.send(.onAppear)
    @Shared(.visits) var visits
    $visits.withLock { $0 = 3 }
    // A change made outside the reducer belongs to the next step's assertion.
    await store.receive(.visitsChanged(3)) {
      $0.$visits.withLock { $0 = 3 }
      $0.seen = [3]
    }
    await store.send(.stop)
  }
}
