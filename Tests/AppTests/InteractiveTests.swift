import ConcurrencyExtras
import Foundation
import HTTPTestServer
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The binary under a pseudo-terminal of 80×24, driven by key bytes, as a person would use it.
final class PseudoTerminalSession: @unchecked Sendable {
  let process = Process()
  let master: Int32
  private let slave: Int32
  let output = LockIsolated(Data())

  init(arguments: [String]) throws {
    var master: Int32 = 0
    var slave: Int32 = 0
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.ENOTTY) }
    self.master = master
    self.slave = slave
    process.executableURL = binary
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["TERM"] = "xterm"
    process.environment = environment
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    let output = self.output
    let source = master
    Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(source, &buffer, buffer.count)
        if count <= 0 { return }
        let chunk = Array(buffer.prefix(count))
        output.withValue { $0.append(contentsOf: chunk) }
      }
    }.start()
  }

  /// The binary in `sandbox`'s directories, with `arguments` before them.
  convenience init(in sandbox: Sandbox, arguments: [String] = []) throws {
    try self.init(arguments: arguments + sandbox.directoryArguments)
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(slave)
    close(master)
  }

  var text: String { String(decoding: output.value, as: UTF8.self) }

  func type(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
  }

  /// Waits until the output since `offset` contains `needle`; fails after five seconds.
  @discardableResult
  func waitFor(
    _ needle: String, after offset: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      let data = output.value
      if String(decoding: data.dropFirst(offset), as: UTF8.self).contains(needle) { return true }
      usleep(10_000)
    }
    Issue.record("'\(needle)' never appeared", sourceLocation: sourceLocation)
    return false
  }

  /// Types `keys`, then waits for `needle` in what the app draws after them.
  func type(
    _ keys: String, thenWaitFor needle: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let mark = output.value.count
    type(keys)
    waitFor(needle, after: mark, sourceLocation: sourceLocation)
  }

  func waitForExit() -> Int32? {
    // A bound against a hang; a machine running the whole suite may take seconds to get here.
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    return process.isRunning ? nil : process.terminationStatus
  }
}

@Suite(.serialized)
struct InteractiveTests {
  @Test func aSessionFromLaunchToQuit() async throws {
    let sandbox = Sandbox()
    let server = try await HTTPTestServer { request in
      .text("\(request.path.dropFirst()) is lucky.")
    }
    defer { Task { try await server.shutdown() } }
    let session = try PseudoTerminalSession(
      in: sandbox, arguments: ["--fact-url", server.baseURL.absoluteString])
    // Raw mode, alternate screen, hidden cursor, then the first screen.
    session.waitFor("\u{1B}[?1049h")
    session.waitFor("[1 Counter]")
    session.waitFor("Count: 0")

    session.type("++", thenWaitFor: "Count: 2")

    var mark = session.output.value.count
    session.type("f")
    session.waitFor("Fact about 2", after: mark)
    session.waitFor("2 is lucky.", after: mark)
    mark = session.output.value.count
    session.type("\u{1B}")
    session.waitFor("+/- count", after: mark)
    #expect(
      !String(decoding: session.output.value.dropFirst(mark), as: UTF8.self).contains("┌─Fact"))

    session.type("2", thenWaitFor: "[2 Todos]")
    session.type("a")
    session.type("Buy milk")
    session.type("\r", thenWaitFor: "[ ] Buy milk  (medium)")
    session.type(" ", thenWaitFor: "[x] Buy milk")

    mark = session.output.value.count
    session.type("5")
    session.waitFor("[5 Contacts]", after: mark)
    session.waitFor("No contacts. Press a to add one.", after: mark)

    mark = session.output.value.count
    session.type("q")
    #expect(session.waitForExit() == 0)
    // The terminal is given back: cursor shown, alternate screen left, settings restored.
    session.waitFor("\u{1B}[?25h\u{1B}[?1049l", after: mark)
    var settings = termios()
    #expect(tcgetattr(session.master, &settings) == 0)
    #expect(settings.c_lflag & tcflag_t(ECHO) != 0)
    #expect(settings.c_lflag & tcflag_t(ICANON) != 0)

    // What was typed was saved.
    let list = try sandbox.run(["todos", "list"])
    #expect(list.stdout.contains("[x] Buy milk"))
  }

  @Test func aRecordedSessionReplaysToTheScreenItEndedOn() throws {
    let sandbox = Sandbox()
    let recording = try sandbox.recordingURL("session")
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["--record", recording.path])
    session.waitFor("Count: 0")
    session.type("++", thenWaitFor: "Count: 2")
    session.type("2", thenWaitFor: "[2 Todos]")
    session.type("a")
    session.type("Buy milk")
    session.type("\r", thenWaitFor: "[ ] Buy milk  (medium)")
    session.type("1", thenWaitFor: "[1 Counter]")
    session.type("-", thenWaitFor: "Count: 1")
    // Let the todo's save answer before quitting, so the last screen is the final state's.
    usleep(300_000)
    let mark = session.output.value.count
    session.type("q")
    #expect(session.waitForExit() == 0)
    session.waitFor(Self.restore, after: mark)

    let replay = try sandbox.run(["replay", recording.path, "--screen"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let lastScreen = try #require(Self.lastScreen(in: session.text))
    #expect(lastScreen.contains("Count: 1"))
    #expect(Self.trimmed(replay.stdout) == lastScreen)
  }

  @Test func stepsThroughARecordingWithTheArrowKeys() throws {
    let sandbox = Sandbox()
    let recording = try sandbox.recordDriving(
      "counter", [#"{"incrementButtonTapped":{}}"#, #"{"resetButtonTapped":{}}"#], to: "steps")
    let session = try PseudoTerminalSession(arguments: [
      "replay", recording.path, "--step", "--config-dir", sandbox.config.path,
    ])
    session.waitFor("the start, before 2 actions")
    session.waitFor("count: 0")
    let right = "\u{1B}[C"
    let left = "\u{1B}[D"
    session.type(right, thenWaitFor: "action 1 of 2")
    session.waitFor("#1 Counter.Action.incrementButtonTapped")
    session.waitFor("+   count: 1,")
    session.type(right, thenWaitFor: "#2 Counter.Action.resetButtonTapped")
    // Past the end stays on the last action; back goes to the first again.
    session.type(right + left, thenWaitFor: "action 1 of 2")
    let mark = session.output.value.count
    session.type("q")
    #expect(session.waitForExit() == 0)
    session.waitFor(Self.restore, after: mark)
  }

  static let restore = "\u{1B}[?25h\u{1B}[?1049l"

  /// The last full screen the app drew before giving the terminal back, as plain text.
  static func lastScreen(in output: String) -> String? {
    guard let end = output.range(of: restore, options: .backwards),
      let start = output[..<end.lowerBound].range(of: "\u{1B}[H", options: .backwards)
    else { return nil }
    let frame = output[start.upperBound..<end.lowerBound]
      .replacing(#/\u{1B}\[[0-9;?]*[A-Za-z]/#, with: "")
    return trimmed(String(frame).replacing("\r\n", with: "\n"))
  }

  /// Lines without trailing spaces, and no empty lines at the end.
  static func trimmed(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.replacing(#/\s+$/#, with: "") }
      .joined(separator: "\n")
      .replacing(#/\n+$/#, with: "")
  }

  @Test func aPreferenceSurvivesARestart() throws {
    let sandbox = Sandbox()
    let arguments = ["tui", "--tab", "todos"]
    let first = try PseudoTerminalSession(in: sandbox, arguments: arguments)
    first.waitFor("Filter: all")
    var mark = first.output.value.count
    first.type("f")
    first.waitFor("Filter: active", after: mark)
    mark = first.output.value.count
    first.type("q")
    #expect(first.waitForExit() == 0)

    let settings = try String(
      contentsOf: sandbox.config.appendingPathComponent("settings.json"), encoding: .utf8)
    #expect(settings.contains(#""todos.filter" : "active""#))

    // A new process reads the preference the last one chose.
    let second = try PseudoTerminalSession(in: sandbox, arguments: arguments)
    second.waitFor("Filter: active")
    second.type("q")
    #expect(second.waitForExit() == 0)
  }

  /// Sent once the first screen is drawn, and sent the moment the app enters the alternate
  /// screen, before its main queue has run once: the signal waits for the app's handler.
  @Test(arguments: ["[1 Counter]", "\u{1B}[?1049h"])
  func sigtermRestoresTheTerminal(once drawn: String) throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox)
    let deadline = Date().addingTimeInterval(5)
    while !session.text.contains(drawn), Date() < deadline { usleep(100) }
    let mark = session.output.value.count
    session.process.terminate()
    #expect(session.waitForExit() == 143)
    session.waitFor("\u{1B}[?1049l", after: mark)
  }

  @Test func aResizedTerminalIsRedrawnAtItsNewSize() throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox)
    session.waitFor("1-5 tabs  q quit")
    let mark = session.output.value.count
    var size = winsize(ws_row: 10, ws_col: 40, ws_xpixel: 0, ws_ypixel: 0)
    #expect(ioctl(session.master, UInt(TIOCSWINSZ), &size) == 0)
    // The app is not in the terminal's foreground process group, so the kernel does not tell it.
    kill(session.process.processIdentifier, SIGWINCH)
    // Forty columns cut the key help short.
    session.waitFor("t timer  i interval…", after: mark)
    session.type("q")
    #expect(session.waitForExit() == 0)
  }

  @Test func startsOnTheChosenTab() throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(
      in: sandbox, arguments: ["tui", "--tab", "orders"])
    session.waitFor("[3 Orders]")
    session.waitFor("ORD-00001")
    // The demo's error switch is the app's, shown on the status line; a refresh then fails
    // and is retried.
    var mark = session.output.value.count
    session.type("e")
    session.waitFor("[simulating errors]", after: mark)
    mark = session.output.value.count
    session.type("r")
    session.waitFor("Retry 1 of 3", after: mark)
    session.type("\u{03}")
    #expect(session.waitForExit() == 0)
  }
}
