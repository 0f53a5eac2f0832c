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

  init(arguments: [String], environment extra: [String: String] = [:]) throws {
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
    for (key, value) in extra { environment[key] = value }
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
  convenience init(
    in sandbox: Sandbox, arguments: [String] = [], environment: [String: String] = [:]
  ) throws {
    try self.init(arguments: arguments + sandbox.directoryArguments, environment: environment)
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

  /// Waits until the output since `offset` contains `needle`; fails after twenty seconds.
  ///
  /// The bound is against a hang, not a measure of speed: on two cores running the whole suite,
  /// whose other tests start processes of their own, the app once took over five seconds to
  /// draw its first screen. The waits here sleep as tasks rather than block their thread, which
  /// other tests' tasks need.
  @discardableResult
  func waitFor(
    _ needle: String, after offset: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let data = output.value
      if String(decoding: data.dropFirst(offset), as: UTF8.self).contains(needle) { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("'\(needle)' never appeared", sourceLocation: sourceLocation)
    return false
  }

  /// Types `keys`, then waits for `needle` in what the app draws after them.
  func type(
    _ keys: String, thenWaitFor needle: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let mark = output.value.count
    type(keys)
    await waitFor(needle, after: mark, sourceLocation: sourceLocation)
  }

  /// Waits until `condition` holds; fails after twenty seconds, as `waitFor` does.
  func waitUntil(
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
  ) async {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if condition() { return }
      try? await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("\(description) never happened", sourceLocation: sourceLocation)
  }

  /// Waits until the app has read every key typed so far.
  func waitUntilInputIsRead() async {
    await waitUntil("the app reading its input") {
      var pending: Int32 = 0
      return ioctl(slave, UInt(FIONREAD), &pending) == 0 && pending == 0
    }
  }

  /// Types `q` and waits for the app to exit; its status, or `nil` if it did not.
  func quit() async -> Int32? {
    type("q")
    return await waitForExit()
  }

  func waitForExit() async -> Int32? {
    // A bound against a hang; a machine running the whole suite may take seconds to get here.
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
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
    await session.waitFor("\u{1B}[?1049h")
    await session.waitFor("[1 Counter]")
    await session.waitFor("Count: 0")

    await session.type("++", thenWaitFor: "Count: 2")

    var mark = session.output.value.count
    session.type("f")
    await session.waitFor("Fact about 2", after: mark)
    await session.waitFor("2 is lucky.", after: mark)
    mark = session.output.value.count
    session.type("\u{1B}")
    await session.waitFor("+/- count", after: mark)
    #expect(
      !String(decoding: session.output.value.dropFirst(mark), as: UTF8.self).contains("┌─Fact"))

    await session.type("2", thenWaitFor: "[2 Todos]")
    session.type("a")
    session.type("Buy milk")
    await session.type("\r", thenWaitFor: "[ ] Buy milk  (medium)")
    await session.type(" ", thenWaitFor: "[x] Buy milk")

    mark = session.output.value.count
    session.type("5")
    await session.waitFor("[5 Contacts]", after: mark)
    await session.waitFor("No contacts. Press a to add one.", after: mark)

    mark = session.output.value.count
    #expect(await session.quit() == 0)
    // The terminal is given back: cursor shown, alternate screen left, settings restored.
    await session.waitFor("\u{1B}[?25h\u{1B}[?1049l", after: mark)
    var settings = termios()
    #expect(tcgetattr(session.master, &settings) == 0)
    #expect(settings.c_lflag & tcflag_t(ECHO) != 0)
    #expect(settings.c_lflag & tcflag_t(ICANON) != 0)

    // What was typed was saved.
    let list = try await sandbox.run(["todos", "list"])
    #expect(list.stdout.contains("[x] Buy milk"))
  }

  @Test func aRecordedSessionReplaysToTheScreenItEndedOn() async throws {
    let sandbox = Sandbox()
    let recording = try sandbox.recordingURL("session")
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["--record", recording.path])
    await session.waitFor("Count: 0")
    await session.type("++", thenWaitFor: "Count: 2")
    await session.type("2", thenWaitFor: "[2 Todos]")
    session.type("a")
    session.type("Buy milk")
    await session.type("\r", thenWaitFor: "[ ] Buy milk  (medium)")
    await session.type("1", thenWaitFor: "[1 Counter]")
    await session.type("-", thenWaitFor: "Count: 1")
    // The todo's save reaches the file before quitting, so the last screen is the final state's.
    let todos = sandbox.data.appendingPathComponent("todos.json")
    await session.waitUntil("the todo's save") {
      (try? String(contentsOf: todos, encoding: .utf8))?.contains("Buy milk") == true
    }
    let mark = session.output.value.count
    #expect(await session.quit() == 0)
    await session.waitFor(Self.restore, after: mark)

    let replay = try await sandbox.run(["replay", recording.path, "--screen"])
    #expect(replay.status == 0, "\(replay.stderr)")
    let lastScreen = try #require(Self.lastScreen(in: session.text))
    #expect(lastScreen.contains("Count: 1"))
    #expect(Self.trimmed(replay.stdout) == lastScreen)
  }

  @Test func stepsThroughARecordingWithTheArrowKeys() async throws {
    let sandbox = Sandbox()
    let recording = try await sandbox.recordDriving(
      "counter", [#"{"incrementButtonTapped":{}}"#, #"{"resetButtonTapped":{}}"#], to: "steps")
    let session = try PseudoTerminalSession(arguments: [
      "replay", recording.path, "--step", "--config-dir", sandbox.config.path,
    ])
    await session.waitFor("the start, before 2 actions")
    await session.waitFor("count: 0")
    let right = "\u{1B}[C"
    let left = "\u{1B}[D"
    await session.type(right, thenWaitFor: "action 1 of 2")
    await session.waitFor("#1 Counter.Action.incrementButtonTapped")
    await session.waitFor("+   count: 1,")
    await session.type(right, thenWaitFor: "#2 Counter.Action.resetButtonTapped")
    // Past the end stays on the last action; back goes to the first again.
    await session.type(right + left, thenWaitFor: "action 1 of 2")
    let mark = session.output.value.count
    #expect(await session.quit() == 0)
    await session.waitFor(Self.restore, after: mark)
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

  @Test func aPreferenceSurvivesARestart() async throws {
    let sandbox = Sandbox()
    let arguments = ["tui", "--tab", "todos"]
    let first = try PseudoTerminalSession(in: sandbox, arguments: arguments)
    await first.waitFor("Filter: all")
    var mark = first.output.value.count
    first.type("f")
    await first.waitFor("Filter: active", after: mark)
    mark = first.output.value.count
    #expect(await first.quit() == 0)

    let settings = try String(
      contentsOf: sandbox.config.appendingPathComponent("settings.json"), encoding: .utf8)
    #expect(settings.contains(#""todos.filter" : "active""#))

    // A new process reads the preference the last one chose.
    let second = try PseudoTerminalSession(in: sandbox, arguments: arguments)
    await second.waitFor("Filter: active")
    #expect(await second.quit() == 0)
  }

  /// Keys typed faster than a save: each change is saved, in order, before the app exits.
  @Test func changesMadeJustBeforeQuittingAreSaved() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("Filter: all")
    // Added, checked, and the app quit, in one write: the add's save is still running when the
    // check and the quit arrive.
    session.type("aBuy milk\r q")
    #expect(await session.waitForExit() == 0)
    let list = try await sandbox.run(["todos", "list"])
    #expect(list.stdout.contains("[x] Buy milk"))
  }

  /// A save that fails while quitting waits for it is not lost in silence: the alert that says
  /// so is gone with the screen, so the app says it on the way out, and exits 1.
  ///
  /// The todo file's lock is held from before the app starts, so its load waits as well as its
  /// saves: waiting on Swift's concurrency threads, a load and a save held both of a two-core
  /// machine's, and the quit key went unread until the failure's alert, which took it.
  @Test func aSaveThatFailsWhileQuittingIsReported() async throws {
    let sandbox = Sandbox()
    try FileManager.default.createDirectory(at: sandbox.data, withIntermediateDirectories: true)
    // Holding the todo file's lock, as another `composable` saving would: the app's load and
    // saves wait.
    let lock = holdTodoFileLock(in: sandbox)
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("Filter: all")
    // Added and checked: two changes, the second made on the first, both waiting.
    await session.type("aBuy milk\r ", thenWaitFor: "[x] Buy milk")
    let mark = session.output.value.count
    session.type("q")
    // The app has read the quit key before the saves can fail (it may handle it after).
    await session.waitUntilInputIsRead()
    // Where the todo file goes is a file now, not a directory: the saves fail once they run.
    try FileManager.default.moveItem(
      at: sandbox.data, to: sandbox.root.appendingPathComponent("data-moved"))
    try Data().write(to: sandbox.data)
    flock(lock, LOCK_UN)
    close(lock)
    #expect(await session.waitForExit() == 1)
    await session.waitFor(
      "Your last 2 changes were not saved: Your change could not be saved", after: mark)
  }

  /// Sent once the first screen is drawn, and sent the moment the app enters the alternate
  /// screen, before its main queue has run once: the signal waits for the app's handler.
  @Test(arguments: ["[1 Counter]", "\u{1B}[?1049h"])
  func sigtermRestoresTheTerminal(once drawn: String) async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox)
    let deadline = Date().addingTimeInterval(5)
    while !session.text.contains(drawn), Date() < deadline {
      try await Task.sleep(for: .microseconds(100))
    }
    let mark = session.output.value.count
    session.process.terminate()
    #expect(await session.waitForExit() == 143)
    await session.waitFor("\u{1B}[?1049l", after: mark)
  }

  @Test func aResizedTerminalIsRedrawnAtItsNewSize() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox)
    await session.waitFor("f fact  ? keys  q quit")
    let mark = session.output.value.count
    var size = winsize(ws_row: 10, ws_col: 40, ws_xpixel: 0, ws_ypixel: 0)
    #expect(ioctl(session.master, UInt(TIOCSWINSZ), &size) == 0)
    // The app is not in the terminal's foreground process group, so the kernel does not tell it.
    kill(session.process.processIdentifier, SIGWINCH)
    // Forty columns cut the screen's hints short, and keep the keys every tab has.
    await session.waitFor("+/- count  r reset  t t…  ? keys  q quit", after: mark)
    #expect(await session.quit() == 0)
  }

  /// The contacts tab's screens, each drawn from and sending to its own scoped store: the add
  /// sheet, the detail and editor pushed on the stack, and the settings.
  @Test func contactsFromTheAddSheetThroughTheStack() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "contacts"])
    await session.waitFor("No contacts. Press a to add one.")
    let down = "\u{1B}[B"
    await session.type("a", thenWaitFor: "New contact")
    session.type("\r")
    await session.type("Ada", thenWaitFor: "Name: Ada▏")
    session.type("\r")
    await session.type(down, thenWaitFor: "› Email: ")
    await session.type(String(repeating: down, count: 3), thenWaitFor: "› < Save >")
    await session.type("\r", thenWaitFor: "a add  s settings")

    await session.type("\r", thenWaitFor: "Contacts › Ada")
    await session.type("f", thenWaitFor: "★ Ada")
    await session.type("e", thenWaitFor: "Contacts › Ada › Edit")
    session.type("\r")
    await session.type(" Lovelace", thenWaitFor: "Name: Ada Lovelace▏")
    session.type("\r")
    await session.type(String(repeating: down, count: 4), thenWaitFor: "› < Save >")
    // Saving pops the editor back to the detail, which shows the new name.
    await session.type("\r", thenWaitFor: "Contacts › Ada Lovelace")
    await session.type("\u{1B}", thenWaitFor: "★ Ada Lovelace")

    await session.type("s", thenWaitFor: "[x] Favourites first")
    await session.type(" ", thenWaitFor: "[ ] Favourites first")
    await session.type("\u{1B}", thenWaitFor: "a add  s settings")
    #expect(await session.quit() == 0)

    let list = try await sandbox.run(["contacts", "list"])
    #expect(list.stdout.contains("Ada Lovelace"))
  }

  @Test func startsOnTheChosenTab() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(
      in: sandbox, arguments: ["tui", "--tab", "orders"])
    await session.waitFor("[3 Orders]")
    await session.waitFor("ORD-00001")
    // The demo's error switch is the app's, shown on the status line; a refresh then fails
    // and is retried.
    var mark = session.output.value.count
    session.type("e")
    await session.waitFor("[simulating errors]", after: mark)
    mark = session.output.value.count
    session.type("r")
    await session.waitFor("Retry 1 of 3", after: mark)
    session.type("\u{03}")
    #expect(await session.waitForExit() == 0)
  }
}

/// What the terminal app promises about quitting, signals, text and other processes, each a
/// way it once failed.
@Suite(.serialized)
struct TerminalPromiseTests {
  /// A todo checked just before quitting sinks below the active ones a second later, and the
  /// app waits for that order too, so the list reads the same at the next launch: after `q`
  /// (signal 0 here), SIGTERM, SIGINT or SIGHUP alike, as every way of quitting waits for the
  /// same saves.
  @Test(arguments: [0, SIGTERM, SIGINT, SIGHUP])
  func aSignalRightAfterAToggleKeepsItsSaves(signal: Int32) async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("Filter: all")
    await session.type("aBuy milk\raCall mum\r", thenWaitFor: "Call mum")
    await session.type(" ", thenWaitFor: "[x] Buy milk")
    if signal == 0 { session.type("q") } else { kill(session.process.processIdentifier, signal) }
    // As a shell reports a process the signal ended: 128 and its number.
    #expect(await session.waitForExit() == (signal == 0 ? 0 : 128 + signal))
    let list = try await sandbox.run(["todos", "list"]).stdout
    let call = try #require(list.range(of: "[ ] Call mum"))
    let milk = try #require(list.range(of: "[x] Buy milk"))
    #expect(call.lowerBound < milk.lowerBound)
  }

  @Test func aTodoAddedByAnotherProcessAppears() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("No todos. Press a to add one.")
    let mark = session.output.value.count
    let added = try await sandbox.run(["todos", "add", "From another process"])
    #expect(added.status == 0)
    // The file is polled twice a second; how soon is not asserted here, on a machine busy
    // with the other tests, only that it shows.
    await session.waitFor("From another process", after: mark)
    #expect(await session.quit() == 0)
  }

  /// The lock on the todo file is held by "another program": the save waits, and quitting
  /// says why it has not ended yet; a second `q` quits at once and says what was not saved.
  @Test func quittingWhileASaveIsBlockedSaysSo() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("No todos. Press a to add one.")
    let lock = holdTodoFileLock(in: sandbox)
    defer { close(lock) }
    await session.type("aBuy milk\r", thenWaitFor: "[ ] Buy milk")
    await session.type("q", thenWaitFor: "Saving 1 change before quitting…")
    await session.waitFor("Press q to quit now")
    #expect(await session.quit() == 1)
    await session.waitFor("1 change was still being saved when the app quit")
  }

  @Test func escapeSequencesInATitleAreShownNotObeyed() async throws {
    let sandbox = Sandbox()
    _ = try await sandbox.run(["todos", "add", "\u{1B}[2J\u{1B}[Hgotcha"])
    _ = try await sandbox.run(["todos", "add", "first\nsecond"])
    let list = try await sandbox.run(["todos", "list"]).stdout
    #expect(list.contains("\\e[2J\\e[Hgotcha"))
    #expect(list.contains("first⏎second"))
    #expect(!list.contains("\u{1B}"))
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("\\e[2J\\e[Hgotcha")
    await session.waitFor("first⏎second")
    #expect(!session.text.contains("\u{1B}[Hgotcha"))
    #expect(await session.quit() == 0)
  }

  @Test func withoutColourTheCursorRowIsMarked() async throws {
    let sandbox = Sandbox()
    _ = try await sandbox.run(["todos", "add", "one"])
    _ = try await sandbox.run(["todos", "add", "two"])
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("› [ ] one")
    await session.type("\u{1B}[B", thenWaitFor: "› [ ] two")
    #expect(await session.quit() == 0)
  }

  @Test func aTerminalThatCannotDrawAScreenIsTold() async throws {
    let sandbox = Sandbox()
    for term in ["dumb", ""] {
      let session = try PseudoTerminalSession(in: sandbox, environment: ["TERM": term])
      #expect(await session.waitForExit() == 64)
      await session.waitFor("cannot draw a full screen")
      #expect(!session.text.contains("\u{1B}[?1049h"))
    }
  }

  @Test func questionMarkShowsTheKeys() async throws {
    let sandbox = Sandbox()
    let session = try PseudoTerminalSession(in: sandbox, arguments: ["tui", "--tab", "todos"])
    await session.waitFor("? keys  q quit")
    await session.type("?", thenWaitFor: "Keys: Todos")
    await session.waitFor("clear the done todos")
    await session.type("x", thenWaitFor: "? keys  q quit")
    #expect(await session.quit() == 0)
  }
}

/// Takes the todo file's lock in `sandbox`, as another `composable` saving would, and returns
/// its descriptor: the app's loads and saves wait until it is released or closed.
func holdTodoFileLock(in sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation)
  -> Int32
{
  let lock = open(
    sandbox.data.appendingPathComponent("todos.json.lock").path, O_RDWR | O_CREAT, 0o600)
  #expect(lock >= 0, sourceLocation: sourceLocation)
  #expect(flock(lock, LOCK_EX) == 0, sourceLocation: sourceLocation)
  return lock
}
