import ComposableTestSupport
import Foundation
import Testing

// The code of the Recording and replay article (ComposableCore.docc/RecordingAndReplay.md), as
// it is there.

@Reducer
struct Tally {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }

  enum Action: Codable, Equatable {
    case incrementButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}

@MainActor
struct TallyRecordingTests {
  @Test func aRecordedSessionReplays() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tally-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }

    let recorder = try SessionRecorder(url: url, feature: "Tally")
    let store = Store(initialState: Tally.State()) { Tally().recording(to: recorder) }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    recorder.flush()

    let report = try SessionReplay.replay(
      url, feature: "Tally", initialState: Tally.State(), reducer: Tally())
    #expect(report.divergence == nil)
    #expect(report.state.count == 2)
  }
}

@Reducer
struct Nickname {
  @ObservableState
  struct State: Equatable {
    var nickname = ""
  }

  enum Action: BindableAction, Codable, Equatable {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
  }
}

extension Nickname.State: BindingCodable {
  static let codableBindings: [BindingField<Self>] = [
    .field("nickname", \.nickname)
  ]
}

@MainActor
struct NicknameRecordingTests {
  @Test func aBindingIsRecordedByItsFieldsName() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("nickname-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }

    let recorder = try SessionRecorder(url: url, feature: "Nickname")
    let store = Store(initialState: Nickname.State()) { Nickname().recording(to: recorder) }
    store.nickname = "Ada"
    recorder.flush()
    #expect(try String(contentsOf: url, encoding: .utf8).contains("\"nickname\""))

    let report = try SessionReplay.replay(
      url, feature: "Nickname", initialState: Nickname.State(), reducer: Nickname())
    #expect(report.divergence == nil)
    #expect(report.state.nickname == "Ada")
  }
}
