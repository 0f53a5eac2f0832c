import ComposableTestSupport
import Foundation
import Testing

/// A small feature whose actions are Codable, with an effect whose result comes back as an action.
@Reducer
struct Tally {
  struct State: Equatable {
    var count = 0
    var log: [String] = []
  }

  enum Action: Codable, Equatable {
    case add(Int)
    case echo(String)
    case echoed(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let amount):
        state.count += amount
        return .none
      case .echo(let text):
        return .run { send in await send(.echoed(text.uppercased())) }
      case .echoed(let text):
        state.log.append(text)
        return .none
      }
    }
  }
}

/// Adds, and counts its body's builds: a recorded feature's body is built once for its store.
struct LoggedTally: Reducer {
  let log: BuildLog

  var body: some Reducer<Int, Tally.Action> {
    let _ = log.record("LoggedTally")
    Reduce { state, action in
      if case .add(let amount) = action { state += amount }
      return .none
    }
  }
}

/// A login form whose stored flags follow rules on its secret fields, as a sign-up form's do.
@Reducer
struct Login {
  struct State: Equatable, RecordingSecrets {
    var user = ""
    var password = ""
    var repeated = ""
    var isLongEnough = false
    var matches = false

    static var secretFields: [WritableKeyPath<Self, String>] { [\.password, \.repeated] }
  }

  enum Action: Codable, Equatable {
    case user(String)
    case password(String)
    case repeated(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .user(let user): state.user = user
      case .password(let password): state.password = password
      case .repeated(let repeated): state.repeated = repeated
      }
      state.isLongEnough = state.password.count >= 8 && state.password.contains(where: \.isNumber)
      state.matches = state.password == state.repeated
      return .none
    }
  }
}

@MainActor
final class RecordingTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("recordings-\(UUID().uuidString)")

  // Each test runs on an instance of its own, whose recordings go with it.
  deinit { try? FileManager.default.removeItem(at: directory) }

  func record(_ name: String, _ session: (StoreOf<Tally>) async -> Void) async throws -> URL {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    let recorder = try SessionRecorder(url: url, feature: "Tally")
    let store = Store(initialState: Tally.State()) { Tally().recording(to: recorder) }
    await session(store)
    recorder.flush()
    return url
  }

  @Test func secretsAreStandInsAndTheReplayStillChecks() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("login.jsonl")
    // A file that was readable by others before the recording replaced it.
    try Data().write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    let recorder = try SessionRecorder(url: url, feature: "Login")
    let store = Store(initialState: Login.State()) { Login().recording(to: recorder) }
    for action: Login.Action in [
      .user("ada"), .password("Secret12"), .repeated("Secret13"), .repeated("Secret12"),
      .password("short1"),
    ] {
      store.send(action)
    }
    recorder.flush()
    #expect(store.state.matches == false)

    let recorded = try String(contentsOf: url, encoding: .utf8)
    for secret in ["Secret12", "Secret13", "short1"] {
      #expect(!recorded.contains(secret), "\(secret)")
    }
    #expect(recorded.contains("ada"))
    let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]
    #expect(mode as? Int == 0o600)

    // Stand-ins keep lengths, kinds of characters and which secrets are equal, so the flags the
    // rules set come out the same at every step.
    let report = try SessionReplay.replay(
      url, feature: "Login", initialState: Login.State(), reducer: Login())
    #expect(report.divergence == nil)
    #expect(report.actions == 5)
    #expect(report.state.isLongEnough == false)
    #expect(report.state.matches == false)
    #expect(report.state.user == "ada")
  }

  @Test func aRecordedFeaturesBodyIsBuiltOnceAndSoIsItsReplays() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("built.jsonl")
    let recorder = try SessionRecorder(url: url, feature: "LoggedTally")
    let log = BuildLog()
    let store = Store(initialState: 0) { LoggedTally(log: log).recording(to: recorder) }
    for amount in 1...3 { store.send(.add(amount)) }
    recorder.flush()
    #expect(store.state == 6)
    #expect(log.count("LoggedTally") == 1)

    let replayLog = BuildLog()
    let report = try SessionReplay.replay(
      url, feature: "LoggedTally", initialState: 0, reducer: LoggedTally(log: replayLog))
    #expect(report.actions == 3)
    #expect(report.state == 6)
    #expect(report.divergence == nil)
    #expect(replayLog.count("LoggedTally") == 1)
  }

  @Test func aRecordedSessionReplaysToTheSameState() async throws {
    var final = Tally.State()
    let url = try await record("session.jsonl") { store in
      store.send(.add(2))
      await store.send(.echo("hi")).finish()
      store.send(.add(3))
      final = store.state
    }
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    // The header, the three sent actions and the one the effect sent back.
    #expect(lines.count == 5)
    let report = try SessionReplay.replay(
      url, feature: "Tally", initialState: Tally.State(), reducer: Tally())
    #expect(report.actions == 4)
    #expect(report.divergence == nil)
    #expect(report.state == final)
    #expect(!report.endedInPartialLine)
    // Twice, the same.
    let again = try SessionReplay.replay(
      url, feature: "Tally", initialState: Tally.State(), reducer: Tally())
    #expect(again.state == report.state)
  }

  @Test func aTruncatedLastLineIsLeftOutAndSaid() async throws {
    let url = try await record("cut.jsonl") { store in
      store.send(.add(1))
      store.send(.add(10))
    }
    var data = try Data(contentsOf: url)
    data.removeLast(8)
    try data.write(to: url)
    let report = try SessionReplay.replay(
      url, feature: "Tally", initialState: Tally.State(), reducer: Tally())
    #expect(report.endedInPartialLine)
    #expect(report.actions == 1)
    #expect(report.state.count == 1)
  }

  @Test func aDivergenceNamesTheActionAndShowsTheDifference() async throws {
    let url = try await record("diverge.jsonl") { store in
      store.send(.add(1))
      store.send(.add(2))
    }
    // Replaying with a reducer that adds twice as much leaves the recording at once.
    let doubling = Reduce<Tally.State, Tally.Action> { state, action in
      if case .add(let amount) = action { state.count += 2 * amount }
      return .none
    }
    let report = try SessionReplay.replay(
      url, feature: "Tally", initialState: Tally.State(), reducer: doubling)
    #expect(report.divergence?.seq == 1)
    #expect(report.divergence?.difference.contains("−   count: 1") == true)
    #expect(report.divergence?.difference.contains("+   count: 2") == true)
  }

  @Test func anotherFeatureOrANewerFormatIsRejected() async throws {
    let url = try await record("other.jsonl") { store in store.send(.add(1)) }
    #expect(throws: ReplayError.otherFeature(recorded: "Tally", expected: "Counter")) {
      try SessionReplay.replay(
        url, feature: "Counter", initialState: Tally.State(), reducer: Tally())
    }
    let newer = directory.appendingPathComponent("newer.jsonl")
    try Data((#"{"feature":"Tally","format":99}"# + "\n").utf8).write(to: newer)
    #expect(throws: ReplayError.newerFormat(99, supported: 1)) {
      try SessionReplay.replay(
        newer, feature: "Tally", initialState: Tally.State(), reducer: Tally())
    }
  }
}

/// The core's action wrappers can be recorded when what they carry can.
struct CodableActionTests {
  func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
  }

  @Test func presentationIdentifiedAndStackActionsRoundTrip() throws {
    let presented: PresentationAction<Tally.Action> = .presented(.add(2))
    #expect(try roundTrip(presented) == presented)
    #expect(try roundTrip(PresentationAction<Tally.Action>.dismiss) == .dismiss)
    let element = IdentifiedAction<Int, Tally.Action>.element(id: 7, action: .echo("x"))
    #expect(try roundTrip(element) == element)
    let stack: [StackAction<Int, Tally.Action>] = [
      .element(id: 1, action: .add(1)), .popFrom(id: 2), .push(id: 3, state: 9),
    ]
    #expect(try roundTrip(stack) == stack)
    #expect(String(decoding: try JSONEncoder().encode(StackElementID(4)), as: UTF8.self) == "4")
  }
}

/// A feature that draws a UUID, the date and a random number in its reducer, as a real one does
/// when it makes a row: a replay must hand it the same ones.
@Reducer
struct Minting {
  struct State: Equatable {
    var ids: [UUID] = []
    var stamps: [Date] = []
    var rolls: [Int] = []
  }

  enum Action: Codable, Equatable {
    case mint
    case mintLater
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now
  @Dependency(\.withRandomNumberGenerator) var random

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .mint:
        state.ids.append(uuid())
        state.stamps.append(now)
        state.rolls.append(random { Int.random(in: 1...1_000_000, using: &$0) })
        return .none
      case .mintLater:
        // Drawn by the effect, not the reducer: not part of the step.
        return .run { [uuid] send in
          _ = uuid()
          await send(.mint)
        }
      }
    }
  }
}

extension RecordingTests {
  @Test func uuidsDatesAndRandomNumbersAreReplayed() async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("minting.jsonl")
    let recorder = try SessionRecorder(url: url, feature: "Minting", start: ["rolls": 3])
    // The live generators: nothing a replay could guess.
    let store = Store(initialState: Minting.State()) {
      Minting().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .init { UUID() }
      $0.date = .init { Date() }
      $0.withRandomNumberGenerator = .init(SystemRandomNumberGenerator())
    }
    store.send(.mint)
    await store.send(.mintLater).finish()
    store.send(.mint)
    recorder.flush()
    #expect(store.state.ids.count == 3)

    let header = try SessionReplay.header(of: url)
    #expect(header.feature == "Minting")
    #expect(try header.start(as: [String: Int].self) == ["rolls": 3])
    let report = try SessionReplay.replay(
      url, feature: "Minting", initialState: Minting.State(), reducer: Minting(),
      keepingSteps: true)
    #expect(report.divergence == nil)
    #expect(report.state == store.state)
    #expect(report.steps.map(\.seq) == [1, 2, 3, 4])
    #expect(report.steps[1].action == "Minting.Action.mintLater")
  }
}

@Reducer
struct Form {
  @ObservableState
  struct State: Equatable, BindingCodable {
    var name = ""
    var age = 0
    var notes = ""
    static let codableBindings: [BindingField<Self>] = [
      .field("name", \.name), .field("age", \.age),
    ]
  }

  enum Action: BindableAction, Codable, Equatable {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> { BindingReducer() }
}

extension CodableActionTests {
  @Test func bindingActionsAreWrittenByFieldName() throws {
    let action = Form.Action.binding(.set(\.age, 42))
    let json = String(decoding: try JSONEncoder().encode(action), as: UTF8.self)
    #expect(json.contains(#""field":"age""#))
    #expect(json.contains(#""value":42"#))
    #expect(try roundTrip(action) == action)
    #expect(
      try roundTrip(Form.Action.binding(.set(\.name, "Ada"))) == .binding(.set(\.name, "Ada")))
    // A field the state does not list cannot be written, and the error says which.
    #expect {
      try JSONEncoder().encode(Form.Action.binding(.set(\.notes, "x")))
    } throws: { error in
      "\(error)".contains("codableBindings")
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        Form.Action.self, from: Data(#"{"binding":{"_0":{"field":"height","value":1}}}"#.utf8))
    }
  }

  enum Failure: Error, Codable, Equatable {
    case offline
    case status(Int)
  }

  @Test func resultsWithTypedErrorsRoundTrip() throws {
    let success: Result<[Int], Failure> = .success([1, 2])
    let failure: Result<[Int], Failure> = .failure(.status(503))
    #expect(try roundTrip(success) == success)
    #expect(try roundTrip(failure) == failure)
    #expect(
      String(decoding: try JSONEncoder().encode(success), as: UTF8.self) == #"{"success":[1,2]}"#)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Result<Int, Failure>.self, from: Data("{}".utf8))
    }
  }

  struct Screen: Equatable { var title: String }

  @Test func aPushOfStateThatIsNotCodableSaysSo() throws {
    let push = StackAction<Screen, Tally.Action>.push(id: 0, state: Screen(title: "x"))
    #expect {
      try JSONEncoder().encode(push)
    } throws: { error in
      "\(error)".contains("is not Encodable")
    }
    let element = StackAction<Screen, Tally.Action>.element(id: 1, action: .add(1))
    #expect(try roundTrip(element) == element)
  }
}

@Reducer
struct SharedTally {
  struct State: Equatable {
    @Shared(.inMemory("recorded-total")) var total = 0
  }

  enum Action: Codable, Equatable { case add(Int) }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let amount):
        state.$total.withLock { $0 += amount }
        return .none
      }
    }
  }
}

extension RecordingTests {
  @Test func aSharedValueIsRecordedAsItWasAfterEachAction() async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("shared.jsonl")
    let recorder = try SessionRecorder(url: url, feature: "SharedTally")
    let store = Store(initialState: SharedTally.State()) {
      SharedTally().recording(to: recorder)
    }
    for amount in 1...50 { store.send(.add(amount)) }
    recorder.flush()
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    // Each line shows the total after its own action, not the one when it was written.
    #expect(lines[1].contains(#"_total: 1\n)"#))
    #expect(lines[2].contains(#"_total: 3\n)"#))
    let report = try withDependencies {
      $0.sharedReferences = SharedReferences()
      $0.defaultInMemoryStorage = InMemoryStorage()
    } operation: {
      try SessionReplay.replay(
        url, feature: "SharedTally", initialState: SharedTally.State(), reducer: SharedTally())
    }
    #expect(report.divergence == nil)
    #expect(report.state.total == 1275)
  }
}
