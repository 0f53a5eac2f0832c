import Foundation
import HTTPTestServer
import Testing

/// `--record`, `replay` and `drive`, through the binary, against real files and local servers.
@Suite(.serialized)
struct SessionTests {
  let replayed = #/Replayed (\d+) actions of (\w+): the final state is the recorded one\./#

  /// Replays `recording` twice, expects both to reach the recorded state and print the same final
  /// state, and returns how many actions there were.
  func replayTwice(_ recording: URL, of feature: String, in sandbox: Sandbox) async throws -> Int {
    let run = try await sandbox.run(["replay", recording.path])
    #expect(run.status == 0, "\(run.stderr)")
    let match = try #require(try replayed.firstMatch(in: run.stdout))
    #expect(match.output.2 == feature)
    let first = try await sandbox.run(["replay", recording.path, "--state"])
    let second = try await sandbox.run(["replay", recording.path, "--state"])
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    #expect(try decodeJSON(first.stdout) is [String: Any])
    return Int(match.output.1)!
  }

  @Test func everyFeaturesCommandIsRecordedAndReplaysToItsState() async throws {
    let sandbox = Sandbox()
    let server = try await HTTPTestServer { request in
      request.path == "/signup"
        ? .json(["userID": "u-1", "email": "ada@example.com"], status: 201)
        : .text("\(request.path.dropFirst()) is recorded.")
    }
    defer { Task { try await server.shutdown() } }
    let file = { (name: String) in try sandbox.recordingURL(name) }

    let fact = try await sandbox.run([
      "fact", "7", "--fact-url", server.baseURL.absoluteString, "--record", file("fact").path,
    ])
    #expect(fact.stdout == "7 is recorded.\n")
    // Tapped, then the answer the effect sent back.
    #expect(try await replayTwice(file("fact"), of: "counter", in: sandbox) == 2)

    _ = try await sandbox.run(["todos", "add", "Buy milk", "--record", file("add").path])
    #expect(try await replayTwice(file("add"), of: "todos", in: sandbox) == 6)
    let id = try await sandbox.run(["todos", "list", "--json"]).stdout
      .firstMatch(of: #/"id" : "(\w{8})/#).map { String($0.output.1) }
    #expect(
      try await sandbox.run(["todos", "done", try #require(id), "--record", file("done").path])
        .status == 0)
    #expect(try await replayTwice(file("done"), of: "todos", in: sandbox) >= 3)

    #expect(
      try await sandbox.run(["orders", "--all", "--record", file("orders").path]).status == 0)
    #expect(try await replayTwice(file("orders"), of: "orders", in: sandbox) >= 2)

    let signup = try await sandbox.run([
      "signup", "--email", "ada@example.com", "--password", "engine42", "--confirm", "engine42",
      "--accept-terms", "--signup-url",
      server.baseURL.appendingPathComponent("signup").absoluteString,
      "--record", file("signup").path,
    ])
    #expect(signup.status == 0)
    #expect(try await replayTwice(file("signup"), of: "signup", in: sandbox) >= 6)
    // The password is written as a stand-in, and the recording is its owner's alone.
    let recorded = try String(contentsOf: file("signup"), encoding: .utf8)
    #expect(!recorded.contains("engine42"))
    #expect(recorded.contains(#"password: \"abcdef67\""#))
    let mode = try FileManager.default.attributesOfItem(atPath: file("signup").path)[
      .posixPermissions]
    #expect(mode as? Int == 0o600)

    // A new contact's id is a UUID the reducer drew: the replay is handed the same one.
    #expect(
      try await sandbox.run(["contacts", "add", "--name", "Ada", "--record", file("contacts").path])
        .status == 0)
    #expect(try await replayTwice(file("contacts"), of: "contacts", in: sandbox) >= 4)

    // The whole app, driven headless.
    let app = try await sandbox.recordDriving(
      "app",
      [
        #"{"tabSelected":{"_0":"todos"}}"#, #"{"counter":{"_0":{"incrementButtonTapped":{}}}}"#,
        #"{"todos":{"_0":{"addButtonTapped":{}}}}"#,
      ], to: "app")
    #expect(try await replayTwice(app, of: "app", in: sandbox) == 3)
  }

  @Test func driveChangesCopiesUnlessAskedToPersist() async throws {
    let sandbox = Sandbox()
    #expect(try await sandbox.run(["todos", "add", "Keep me"]).status == 0)
    try FileManager.default.createDirectory(at: sandbox.config, withIntermediateDirectories: true)
    let settings = sandbox.config.appendingPathComponent("settings.json")
    try Data(#"{"todos.filter":"all"}"#.utf8).write(to: settings)
    let todos = sandbox.data.appendingPathComponent("todos.json")
    let before = (try Data(contentsOf: todos), try Data(contentsOf: settings))
    let session = [
      #"{"onAppear":{}}"#, #"{"filterSelected":{"_0":"completed"}}"#,
      #"{"binding":{"_0":{"field":"newTitle","value":"Driven"}}}"#, #"{"addButtonTapped":{}}"#,
    ].map { $0 + "\n" }.joined()

    let scratch = try await sandbox.run(["drive", "todos"], input: session)
    #expect(scratch.status == 0, "\(scratch.stderr)")
    // The session saw the user's todo and added one, in a copy.
    #expect(scratch.stdout.contains("Keep me"))
    #expect(scratch.stdout.contains("Driven"))
    #expect(scratch.stdout.contains(#""filter":"completed""#))
    #expect(try Data(contentsOf: todos) == before.0)
    #expect(try Data(contentsOf: settings) == before.1)

    let persisted = try await sandbox.run(["drive", "todos", "--persist"], input: session)
    #expect(persisted.status == 0, "\(persisted.stderr)")
    #expect(try String(contentsOf: todos, encoding: .utf8).contains("Driven"))
    #expect(try String(contentsOf: settings, encoding: .utf8).contains("completed"))
  }

  @Test func everyListedActionIsOneDriveReads() async throws {
    let sandbox = Sandbox()
    for feature in ["counter", "todos", "orders", "signup", "contacts", "app"] {
      let listed = try await sandbox.run(["actions", feature])
      #expect(listed.status == 0)
      let lines = listed.stdout.split(separator: "\n")
      #expect(lines.count >= 5, "\(feature)")
      let driven = try await sandbox.run(
        ["drive", feature, "--no-effects"], input: listed.stdout)
      #expect(driven.status == 0, "\(feature): \(driven.stderr)")
      // One state line for each action sent.
      #expect(driven.stdout.split(separator: "\n").count == lines.count, "\(feature)")
    }
  }

  @Test func aRecordingCutShortReplaysUpToItsLastWholeLine() async throws {
    let sandbox = Sandbox()
    let file = try sandbox.recordingURL("cut")
    _ = try await sandbox.run(["todos", "add", "Buy milk", "--record", file.path])
    var data = try Data(contentsOf: file)
    data.removeLast(20)
    try data.write(to: file)
    let run = try await sandbox.run(["replay", file.path])
    #expect(run.status == 0)
    #expect(run.stdout.contains("Replayed 5 actions of todos"))
    #expect(run.stderr.contains("note: the recording's last line was cut short"))
  }

  @Test func recordingsThisBuildCannotUseExitWith65() async throws {
    let sandbox = Sandbox()
    func replay(_ contents: String) async throws -> Run {
      let file = try sandbox.recordingURL(UUID().uuidString)
      try Data(contents.utf8).write(to: file)
      return try await sandbox.run(["replay", file.path])
    }
    let newer = try await replay(#"{"feature":"counter","format":2,"start":"{}"}"# + "\n")
    #expect(newer.status == 65)
    #expect(newer.stderr.contains("the recording has format 2; this build reads up to 1"))
    let other = try await replay(#"{"feature":"spreadsheet","format":1,"start":"{}"}"# + "\n")
    #expect(other.status == 65)
    #expect(other.stderr.contains("'spreadsheet', a feature this build does not have"))
    let notOne = try await replay("hello\n")
    #expect(notOne.status == 65)
    #expect(notOne.stderr.contains("is not a recording"))
    let badAction = try await replay(
      #"{"feature":"counter","format":1,"start":"{}"}"# + "\n"
        + #"{"seq":1,"action":{"launchRockets":{}},"state":""}"# + "\n")
    #expect(badAction.status == 65)
    #expect(
      badAction.stderr.contains("action 1 cannot be read: 'launchRockets' is not an action"),
      "\(badAction.stderr)")
    let missing = try await sandbox.run([
      "replay", sandbox.root.appendingPathComponent("none").path,
    ])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("none: No such file or directory"), "\(missing.stderr)")
    let both = try await sandbox.run(["replay", "x.jsonl", "--state", "--screen"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("--step, --state and --screen are alternatives"))
  }

  @Test func aReplayThatLeavesTheRecordingSaysWhere() async throws {
    let sandbox = Sandbox()
    let file = try await sandbox.recordDriving(
      "counter", [#"{"incrementButtonTapped":{}}"#, #"{"incrementButtonTapped":{}}"#],
      to: "edited")
    // The second step's recorded state says 5 where the reducer makes 2.
    var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
    lines[2] = lines[2].replacingOccurrences(of: "count: 2", with: "count: 5")
    try Data(lines.joined(separator: "\n").utf8).write(to: file)
    let run = try await sandbox.run(["replay", file.path])
    #expect(run.status == 1)
    #expect(run.stderr.contains("the replay left the recording at action #2"))
    #expect(run.stderr.contains("−   count: 5,"))
    #expect(run.stderr.contains("+   count: 2,"))
  }

  @Test func stepsShowWhatEachActionChanged() async throws {
    let sandbox = Sandbox()
    let file = try await sandbox.recordDriving(
      "signup", [#"{"view":{"_0":{"binding":{"_0":{"field":"email","value":"ada@x.io"}}}}}"#],
      to: "steps")
    // Without a terminal, every step is printed in order.
    let run = try await sandbox.run(["replay", file.path, "--step"])
    #expect(run.status == 0)
    #expect(
      run.stdout.contains(
        #"#1 SignUpForm.Action.view(.binding(.set(keyPath: \.email, value: "ada@x.io")))"#))
    #expect(run.stdout.contains(#"−   email: "","#))
    #expect(run.stdout.contains(#"+   email: "ada@x.io","#))
  }

  @Test func driveReadsActionsAndWritesStates() async throws {
    let sandbox = Sandbox()
    let server = try await HTTPTestServer { request in
      .text("\(request.path.dropFirst()) is driven.")
    }
    defer { Task { try await server.shutdown() } }
    let run = try await sandbox.run(
      ["drive", "counter", "--fact-url", server.baseURL.absoluteString],
      input: #"{"incrementButtonTapped":{}}"# + "\n" + #"{"factButtonTapped":{}}"# + "\n")
    #expect(run.status == 0, "\(run.stderr)")
    let lines = try run.stdout.split(separator: "\n").map {
      try #require(try decodeJSON(String($0)) as? [String: Any])
    }
    // The two sent, then the answer the fact effect sent back.
    #expect(lines.map { $0["seq"] as? Int } == [1, 2, 3])
    let states = lines.map { $0["state"] as? [String: Any] ?? [:] }
    #expect(states.map { $0["count"] as? Int } == [1, 1, 1])
    #expect(states.map { $0["factNumber"] as? Int } == [nil, 1, nil])
    let last = try #require(lines.last?["action"] as? [String: Any])
    #expect(
      (last["factResponse"] as? [String: Any])?["_0"] as? [String: String]
        == ["success": "1 is driven."])
    // The fact came back as an alert with the text, as the terminal shows it.
    #expect(states[2]["alert"].map { "\($0)" }?.contains("1 is driven.") == true)

    let bad = try await sandbox.run(
      ["drive", "counter"], input: "{\"incrementButtonTapped\":{}}\nnope\n")
    #expect(bad.status == 65)
    #expect(bad.stderr.contains("line 2 is not an action of counter"))
    #expect(bad.stdout.split(separator: "\n").count == 1)
    for (line, reason) in [
      (#"{"incrementTapped":{}}"#, "'incrementTapped' is not an action"),
      (
        #"{"alert":{"_0":{"presented":{"_0":{"retry":{}}}}}}"#,
        "'retry' is not an action inside alert._0.presented._0"
      ),
      (#"{"factResponse":{}}"#, "'_0' is missing inside factResponse"),
      (#"{"a":{},"b":{}}"#, "an action is an object with one key, its name; this one has 2"),
      ("[1]", "an action is an object with one key"),
    ] {
      let run = try await sandbox.run(["drive", "counter"], input: line + "\n")
      #expect(run.status == 65, "\(line)")
      #expect(run.stderr.contains("line 1 is not an action of counter: \(reason)"), "\(run.stderr)")
      #expect(!run.stderr.contains("Invalid number of keys"), "\(run.stderr)")
    }
    let unknown = try await sandbox.run(["drive", "spreadsheet"])
    #expect(unknown.status == 64)
  }
}
