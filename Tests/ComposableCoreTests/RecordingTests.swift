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

@MainActor
struct RecordingTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("recordings-\(UUID().uuidString)")

  func record(_ name: String, _ session: (StoreOf<Tally>) async -> Void) async throws -> URL {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    let recorder = try SessionRecorder(url: url, feature: "Tally")
    let store = Store(initialState: Tally.State()) { Tally().recording(to: recorder) }
    await session(store)
    recorder.flush()
    return url
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
