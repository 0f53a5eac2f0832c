import AppFeature
import ArgumentParser
import ComposableCore
import CounterFeature
import FileSystem
import FormFeature
import Foundation
import NavigationFeature
import RefreshableListFeature
import TerminalUI
import TodoListFeature

/// The features a session can be recorded, replayed and driven for, by the name a recording's
/// header and `drive FEATURE` use.
enum FeatureName: String, CaseIterable, ExpressibleByArgument {
  case app, counter, todos, orders, signup, contacts

  /// The feature whose state is `type`: what a command's store records as.
  init?(stateType type: Any.Type) {
    guard let name = Self.allCases.first(where: { $0.stateType == type }) else { return nil }
    self = name
  }

  private var stateType: Any.Type {
    switch self {
    case .app: AppReducer.State.self
    case .counter: Counter.State.self
    case .todos: TodoList.State.self
    case .orders: RefreshableList.State.self
    case .signup: SignUpForm.State.self
    case .contacts: ContactsBook.State.self
    }
  }

  /// Hands `visitor` the feature's reducer and how to make its state from a session's start.
  @MainActor
  func visit<V: FeatureVisitor>(_ visitor: V) async throws -> V.Result {
    switch self {
    case .app:
      try await visitor.visit(
        self, AppReducer(), { AppReducer.State(selectedTab: $0.tab ?? .counter) })
    case .counter:
      try await visitor.visit(self, Counter(), { Counter.State(count: $0.count ?? 0) })
    case .todos: try await visitor.visit(self, TodoList(), { _ in TodoList.State() })
    case .orders: try await visitor.visit(self, RefreshableList(), { _ in RefreshableList.State() })
    case .signup: try await visitor.visit(self, SignUpForm(), { _ in SignUpForm.State() })
    case .contacts: try await visitor.visit(self, ContactsBook(), { _ in ContactsBook.State() })
    }
  }
}

/// Something done with one feature, whatever its types: replaying or driving it.
@MainActor
protocol FeatureVisitor {
  associatedtype Result
  func visit<R: Reducer>(
    _ name: FeatureName, _ reducer: R, _ initialState: @escaping (SessionStart) -> R.State
  ) async throws -> Result where R.Action: Codable
}

/// How a recorded session began, kept in the recording's header so a replay starts from the same
/// state: the counter's number or the app's tab, and the preferences file as it was, since
/// `@Shared(.appStorage)` fields read it when the state is made.
struct SessionStart: Codable, Equatable {
  var count: Int?
  var tab: AppReducer.Tab?
  var settings: String?

  init(count: Int? = nil, tab: AppReducer.Tab? = nil, settings: String? = nil) {
    (self.count, self.tab, self.settings) = (count, tab, settings)
  }

  /// The start of a session whose first state is `state`, with the preferences in `settingsURL`.
  init(initialState state: Any, settingsURL: URL) {
    self.init(
      count: (state as? Counter.State)?.count,
      tab: (state as? AppReducer.State)?.selectedTab,
      settings: try? String(contentsOf: settingsURL, encoding: .utf8)
    )
  }

  /// Runs `body` with preferences seeded from the recording and kept in memory: a replay reads
  /// the session's preferences and never writes the user's.
  func withRecordedPreferences<T>(_ body: () throws -> T) rethrows -> T {
    try withDependencies(Self.preferencesInMemory(settings)) {
      try body()
    }
  }

  /// Dependencies whose preferences start as `settings` (a preferences file's text) and live in
  /// memory from then on, so nothing a session changes reaches the user's file.
  static func preferencesInMemory(_ settings: String?) -> @Sendable (inout DependencyValues) -> Void
  {
    let storage = InMemoryFileStorage()
    let url = URL(fileURLWithPath: "/session/settings.json")
    if let settings { storage.write(Data(settings.utf8), to: url) }
    return {
      $0.defaultFileStorage = storage
      $0.appStorageURL = url
      $0.sharedReferences = SharedReferences()
    }
  }
}

/// The recorders of this run, flushed before the process exits however the command ends.
@MainActor
enum Recorders {
  private static var open: [SessionRecorder] = []

  /// A recorder of `feature` at `path`, starting from `start`.
  static func start(path: String, feature: FeatureName, start: SessionStart) throws
    -> SessionRecorder
  {
    do {
      let recorder = try SessionRecorder(
        url: URL(fileURLWithPath: path), feature: feature.rawValue, start: start)
      open.append(recorder)
      return recorder
    } catch {
      throw Failure("cannot record to \(path): \(POSIXFile.describe(error))")
    }
  }

  static func flushAll() {
    for recorder in open { recorder.flush() }
  }
}

extension GlobalOptions {
  /// The recorder for `--record FILE` when it was given, of a session starting at
  /// `initialState`. Its reducer (`recording(to:)`) is made in the store's reducer closure, so
  /// that the store keeps it and builds the feature's body once.
  @MainActor
  func recorderIfAsked<State>(initialState: State) throws -> SessionRecorder? {
    guard let record else { return nil }
    guard let feature = FeatureName(stateType: State.self) else {
      throw Failure("this command cannot be recorded")
    }
    let start = SessionStart(
      initialState: initialState,
      settingsURL: configDirectory.appendingPathComponent("settings.json"))
    return try Recorders.start(path: record, feature: feature, start: start)
  }
}

/// A recording the app cannot use: exit code 65 (bad input data), with the reason.
struct RejectedRecording: Error, CustomStringConvertible {
  let description: String
}

// MARK: replay

struct Replay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replays a recorded session (--record FILE) and checks it ends where it did.",
    discussion: """
      Effects are not run: their results are in the recording. Exits 1 when the replayed state \
      leaves the recorded one, and 65 when the file is not a recording this build can read.
      """
  )

  @OptionGroup var options: GlobalOptions
  @Argument(help: "The recording.") var file: String
  @Flag(help: "Step through the actions with ←/→, showing what each one changed.") var step = false
  @Flag(help: "Print the final state as JSON.") var state = false
  @Flag(help: "Print the final screen of an app recording, as the terminal showed it.")
  var screen = false
  @Option(help: "The screen's width, with --screen (default 80).") var width: Int?
  @Option(help: "The screen's height, with --screen (default 24).") var height: Int?

  /// The screen sizes `--screen` draws, in columns and rows.
  static let sizes = 1...1_000

  func validate() throws {
    guard [step, state, screen].filter({ $0 }).count <= 1 else {
      throw ValidationError("--step, --state and --screen are alternatives; choose one.")
    }
    guard screen || (width == nil && height == nil) else {
      throw ValidationError(
        "--width and --height size the screen that --screen draws; add --screen.")
    }
    for (name, value) in [("--width", width), ("--height", height)] {
      guard let value, !Self.sizes.contains(value) else { continue }
      throw ValidationError(
        "\(name) must be from \(Self.sizes.lowerBound) to \(Self.sizes.upperBound), not \(value).")
    }
    try options.rejectRecording(by: "replay")
  }

  func run() async throws {
    let command = self
    try await runCommand {
      do {
        let url = URL(fileURLWithPath: command.file)
        let header = try SessionReplay.header(of: url)
        guard let feature = FeatureName(rawValue: header.feature) else {
          throw RejectedRecording(
            description:
              "\(command.file) records '\(header.feature)', a feature this build does not have")
        }
        let start = try header.start(as: SessionStart.self)
        try await feature.visit(ReplayVisitor(url: url, start: start, command: command))
      } catch let error as ReplayError {
        switch error {
        case .unreadable: throw Failure(error.description)
        default: throw RejectedRecording(description: "\(command.file): \(error)")
        }
      }
    }
  }
}

@MainActor
private struct ReplayVisitor: FeatureVisitor {
  typealias Result = Void
  let url: URL
  let start: SessionStart
  let command: Replay

  func visit<R: Reducer>(
    _ name: FeatureName, _ reducer: R, _ initialState: @escaping (SessionStart) -> R.State
  ) async throws where R.Action: Codable {
    let (report, initial) = try start.withRecordedPreferences {
      let initial = initialState(start)
      // Printed before the replay: shared values in it would show as they are after it.
      let printed = command.step ? String(customDumping: initial) : ""
      let report = try SessionReplay.replay(
        url, feature: name.rawValue, initialState: initial, reducer: reducer,
        keepingSteps: command.step)
      return (report, printed)
    }
    if command.step {
      try await ReplayStepper(feature: name, initial: initial, steps: report.steps).run()
    }
    if report.endedInPartialLine {
      Output.note(
        "the recording's last line was cut short (the session did not end cleanly); replayed up to it"
      )
    }
    if let divergence = report.divergence {
      throw Failure(
        "the replay left the recording at action #\(divergence.seq) (− recorded, + replayed):\n"
          + divergence.difference)
    }
    if command.screen {
      guard let state = report.state as? AppReducer.State else {
        throw Failure("--screen draws app recordings; this one is of \(name.rawValue)")
      }
      let store = Store(initialState: state) { EmptyReducer<AppReducer.State, AppReducer.Action>() }
      var screen = Screen(width: command.width ?? 80, height: command.height ?? 24)
      AppScreen(store: store).draw(into: &screen)
      print(screen.text)
    } else if command.state {
      print(StateJSON.line(report.state))
    } else if !command.step {
      print(
        "Replayed \(report.actions) actions of \(name.rawValue): the final state is the recorded one."
      )
    }
  }
}

// MARK: drive

struct Drive: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Drives a feature headless: JSON actions in on stdin, JSON states out.",
    discussion: """
      Reads one action per line, e.g. {"incrementButtonTapped":{}} for the counter, and writes \
      one line per action the feature processes, sent or from an effect: \
      {"seq":1,"action":…,"state":…}. Effects run with the live clients unless --no-effects; \
      at the end of input, effects still running get --wait seconds to finish. 'composable \
      actions FEATURE' lists what a feature accepts, in this form. The session \
      starts from your todos, contacts and preferences but changes copies of them, unless \
      --persist.
      """
  )

  @OptionGroup var options: GlobalOptions
  @Argument(help: "The feature: \(FeatureName.allCases.map(\.rawValue).joined(separator: ", ")).")
  var feature: FeatureName
  @Flag(help: "Run no effects: only the reducer.") var noEffects = false
  @Flag(help: "Keep what the session changes in your todos, contacts and preferences.")
  var persist = false
  @Option(help: "Seconds to wait for effects after the last action.") var wait = 10.0

  /// The seconds `--wait` may give effects.
  static let waits = 0.0...3_600.0

  func validate() throws {
    // `contains` is false for NaN, and infinity is out of range.
    guard Self.waits.contains(wait) else {
      throw ValidationError(
        "--wait must be from 0 to \(Int(Self.waits.upperBound)) seconds, not \(wait).")
    }
  }

  func run() async throws {
    let command = self
    try await runCommand {
      try await command.feature.visit(DriveVisitor(command: command))
    }
  }
}

@MainActor
private struct DriveVisitor: FeatureVisitor {
  typealias Result = Void
  let command: Drive

  func visit<R: Reducer>(
    _ name: FeatureName, _ reducer: R, _ initialState: @escaping (SessionStart) -> R.State
  ) async throws where R.Action: Codable {
    var options = command.options
    let scratch = command.persist ? nil : try ScratchData(copying: options)
    defer { scratch?.remove() }
    if let scratch { options.dataDir = scratch.directory.path }
    let live = try options.liveDependencies(interactive: true)
    let preferences = scratch.map { SessionStart.preferencesInMemory($0.settings) }
    let dependencies: @Sendable (inout DependencyValues) -> Void = {
      live(&$0)
      preferences?(&$0)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    var seq = 0
    let report = Reduce<R.State, R.Action> { state, action in
      seq += 1
      let action = (try? encoder.encode(action)).map { String(decoding: $0, as: UTF8.self) }
      // Written at once, not buffered: a script reads each line as the feature gets there.
      let line = #"{"seq":\#(seq),"action":\#(action ?? "null"),"state":\#(StateJSON.line(state))}"#
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
      return .none
    }
    let noEffects = command.noEffects
    let state = withDependencies(dependencies) { initialState(SessionStart()) }
    let recorder = try command.options.recorderIfAsked(initialState: state)
    let store = Store(initialState: state) {
      // Made here, in the store's tree, so that the store keeps it: the feature's body is built
      // once, not for each action.
      let built = Reduce(reducer)
      let feature = Reduce<R.State, R.Action> { state, action in
        let effect = built.reduce(into: &state, action: action)
        return noEffects ? .none : effect
      }
      if let recorder { feature.recording(to: recorder) } else { feature }
      report
    } withDependencies: {
      dependencies(&$0)
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    var tasks: [StoreTask] = []
    var lineNumber = 0
    for await line in standardInputLines() {
      lineNumber += 1
      guard !line.allSatisfy(\.isWhitespace) else { continue }
      let action: R.Action
      do {
        action = try decoder.decode(R.Action.self, from: Data(line.utf8))
      } catch {
        throw RejectedRecording(
          description:
            "line \(lineNumber) is not an action of \(name.rawValue): \(SessionReplay.describeActionFailure(error, in: Data(line.utf8)))"
        )
      }
      tasks.append(store.send(action))
    }
    let finished = await finish(tasks, within: .seconds(command.wait))
    if !finished {
      Output.note("effects still running after \(command.wait) s were cancelled")
    }
    @Dependency(\.sharedReferences) var sharedReferences
    sharedReferences.flush()
  }

  /// Waits for the effects of `tasks`, cancelling them when `limit` passes first.
  private func finish(_ tasks: [StoreTask], within limit: Duration) async -> Bool {
    let done = Task { @MainActor in
      for task in tasks { await task.finish() }
    }
    let timeout = Task {
      try await Task.sleep(for: limit)
      done.cancel()
    }
    await done.value
    timeout.cancel()
    if done.isCancelled {
      for task in tasks { task.cancel() }
      return false
    }
    return true
  }
}

/// A private copy of the user's data files, for a session that must leave them as they are, and
/// their preferences as text.
private struct ScratchData {
  let directory: URL
  let settings: String?

  init(copying options: GlobalOptions) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("composable-session-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      for name in ["todos.json", "contacts.json"] {
        let original = options.dataDirectory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: original.path) else { continue }
        try FileManager.default.copyItem(at: original, to: directory.appendingPathComponent(name))
      }
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw Failure("cannot copy your data for the session: \(POSIXFile.describe(error))")
    }
    settings = try? String(
      contentsOf: options.configDirectory.appendingPathComponent("settings.json"), encoding: .utf8)
  }

  func remove() {
    try? FileManager.default.removeItem(at: directory)
  }
}

/// Standard input's lines, read on a thread of their own so effects keep running meanwhile.
private func standardInputLines() -> AsyncStream<String> {
  AsyncStream { continuation in
    Thread {
      while let line = readLine(strippingNewline: true) { continuation.yield(line) }
      continuation.finish()
    }.start()
  }
}
