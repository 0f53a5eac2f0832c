import AnalyticsClientLive
import ArgumentParser
import CacheClientLive
import ComposableCore
import ContactsClientLive
import FileSystem
import Foundation
import LiveHTTP
import NumberFactClientLive
import OrdersClientLive
import SignUpClientLive
import TerminalUI
import TodosClientLive

/// Options every command takes, before or after the subcommand.
struct GlobalOptions: ParsableArguments {
  @Option(help: "Where todos and contacts are kept (default: $XDG_DATA_HOME/composable).")
  var dataDir: String?

  @Option(help: "Where the compressed cache lives (default: $XDG_CACHE_HOME/composable).")
  var cacheDir: String?

  @Option(help: "Where preferences are kept (default: $XDG_CONFIG_HOME/composable).")
  var configDir: String?

  @Option(help: "The number facts server (default: http://numbersapi.com).")
  var factURL: String?

  @Option(help: "The sign-up endpoint (default: http://127.0.0.1:8080/api/signup).")
  var signupURL: String?

  @Option(help: "An orders server; without it the built-in demo backend answers.")
  var ordersURL: String?

  @Flag(help: "No colours (also when NO_COLOR is set).")
  var noColor = false

  @Option(help: "Record every action of the session to this file, for 'composable replay'.")
  var record: String?

  var useColor: Bool {
    !noColor && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
  }

  func validate() throws {
    for (name, value) in [
      ("--data-dir", dataDir), ("--cache-dir", cacheDir), ("--config-dir", configDir),
    ] {
      guard let value else { continue }
      guard !value.isEmpty else {
        throw ValidationError("\(name) must name a directory; it was given an empty path.")
      }
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        throw ValidationError("\(name) \(value) is a file; give a directory.")
      }
    }
    if let record, record.isEmpty {
      throw ValidationError("--record must name a file; it was given an empty path.")
    }
    for (name, value) in [
      ("--fact-url", factURL), ("--signup-url", signupURL), ("--orders-url", ordersURL),
    ] {
      guard let value else { continue }
      guard let url = URL(string: value), let scheme = url.scheme,
        ["http", "https"].contains(scheme),
        url.host != nil
      else { throw ValidationError("\(name) must be an http(s) URL, not '\(value)'.") }
    }
  }

  var dataDirectory: URL {
    dataDir.map { URL(fileURLWithPath: $0) } ?? AppDirectories.data()
  }

  var configDirectory: URL {
    configDir.map { URL(fileURLWithPath: $0) } ?? AppDirectories.config()
  }

  var cacheDirectory: URL {
    cacheDir.map { URL(fileURLWithPath: $0) } ?? AppDirectories.cache()
  }

  /// Refuses `--record` for a command that has no session to record.
  func rejectRecording(by command: String) throws {
    guard record == nil else {
      throw ValidationError(
        "'\(command)' has no session to record; --record works with the interactive mode, drive, "
          + "fact, signup, orders, todos and contacts.")
    }
  }

  /// The cache as it is, without creating its directory: `nil` when there is none yet.
  func openExistingCache() throws -> DiskCache? {
    guard FileManager.default.fileExists(atPath: cacheDirectory.path) else { return nil }
    return try openCache()
  }

  func openCache() throws -> DiskCache {
    do {
      return try DiskCache(DiskCache.Configuration(directory: cacheDirectory))
    } catch {
      throw Failure("\(error)")
    }
  }

  /// The live clients, configured by these options: the only place the app chooses them.
  func liveDependencies(interactive: Bool) throws -> @Sendable (inout DependencyValues) -> Void {
    let cache = CacheClient.disk(try openCache())
    let data = dataDirectory
    let factURL = factURL.flatMap(URL.init(string:))
    let signupURL = signupURL.flatMap(URL.init(string:))
    let ordersURL = ordersURL.flatMap(URL.init(string:))
    let analytics =
      ProcessInfo.processInfo.environment["COMPOSABLE_ANALYTICS"] == "1"
      ? JSONLinesAnalytics(file: data.appendingPathComponent("analytics.jsonl")).client : .disabled
    let settings = configDirectory.appendingPathComponent("settings.json")
    return { dependencies in
      // Preferences (`@Shared(.appStorage(…))` in the features) live in one settings file.
      dependencies.appStorageURL = settings
      dependencies.cacheClient = cache
      dependencies.numberFact = .live(
        configuration: NumberFactClient.Configuration(
          baseURL: factURL ?? NumberFactClient.Configuration().baseURL
        ),
        cache: cache
      )
      dependencies.signUpClient = .live(
        configuration: SignUpClient.Configuration(
          endpoint: signupURL ?? SignUpClient.Configuration().endpoint
        )
      )
      dependencies.todosClient = .live(file: data.appendingPathComponent("todos.json"))
      dependencies.contactsClient = .live(file: data.appendingPathComponent("contacts.json"))
      dependencies.ordersClient =
        ordersURL.map { .http(baseURL: $0, cache: cache) }
        ?? .demo(latency: interactive ? .milliseconds(600) : .zero, cache: cache)
      dependencies.analyticsClient = analytics
      if !interactive {
        // A command runs to completion at once: debounces and retry delays do not wait, and
        // the stored lists are read once rather than watched.
        dependencies.continuousClock = ImmediateClock()
        dependencies.todosClient.changes = { .finished }
        dependencies.contactsClient.changes = { .finished }
      }
    }
  }
}

/// A failed operation: the message goes to standard error and the exit code is 1.
struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Output for people or, with `--json`, one JSON document.
enum Output {
  static func json(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  /// Prints one line for a person. Anything in it from outside (a title, a server's message)
  /// is sanitised: a line break shows as `⏎` and an escape sequence as text, so a stored
  /// string can neither forge lines nor drive the terminal.
  static func line(_ text: String) {
    print(TerminalText.sanitized(text))
  }

  static func error(_ message: String) {
    FileHandle.standardError.write(Data("error: \(lines(message))\n".utf8))
  }

  static func warning(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(lines(message))\n".utf8))
  }

  static func note(_ message: String) {
    FileHandle.standardError.write(Data("note: \(lines(message))\n".utf8))
  }

  /// A message of several lines, each sanitised.
  private static func lines(_ message: String) -> String {
    message.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.sanitized(String($0)) }.joined(separator: "\n")
  }
}

/// A store for one command, with the live clients the options choose, over the feature and
/// anything the command adds, such as an ``ActionLog`` of the results it reports.
@MainActor
func commandStore<State, Action: Codable>(
  _ options: GlobalOptions,
  _ initialState: @autoclosure () -> State,
  @ReducerBuilder<State, Action> reducer: () -> some Reducer<State, Action>
) throws -> Store<State, Action> {
  let dependencies = try options.liveDependencies(interactive: false)
  // The state is made under the live dependencies, so its shared preferences come from them.
  let state = withDependencies(dependencies) { initialState() }
  let recorder = try options.recorderIfAsked(initialState: state)
  // The reducer is made in the store's closure, so that the store keeps it (bodies built once).
  return Store(initialState: state) {
    if let recorder { reducer().recording(to: recorder) } else { reducer() }
  } withDependencies: {
    dependencies(&$0)
  }
}

/// What a command learns from the actions its feature processes: the values `extract` finds,
/// in order. A command decides success from these, never from what the screen would show.
final class ActionLog<Value>: @unchecked Sendable {
  // Unchecked: appended by the store's reducer and read after `finish()`, both on the main actor.
  private(set) var values: [Value] = []

  var last: Value? { values.last }

  /// A reducer that records the value `extract` finds in each action and changes nothing.
  func recording<State, Action>(
    _ extract: @escaping (Action) -> Value?
  ) -> Reduce<State, Action> {
    Reduce { _, action in
      if let value = extract(action) { self.values.append(value) }
      return .none
    }
  }
}

/// Runs a command body on the main actor, turning a `Failure` into its message on standard error
/// and exit code 1, and a `RejectedRecording` into exit code 65; recordings are flushed however it
/// ends.
@MainActor
func runCommand(_ body: @MainActor @Sendable () async throws -> Void) async throws {
  // A recording keeps what happened up to a failure too.
  defer { Recorders.flushAll() }
  let outcome: Result<Void, any Error>
  do {
    try await body()
    outcome = .success(())
  } catch {
    outcome = .failure(error)
  }
  // The command's requests are over, whichever way it ended.
  await LiveHTTP.shutdown()
  do {
    try outcome.get()
  } catch let failure as Failure {
    Output.error(failure.description)
    throw ExitCode.failure
  } catch let rejected as RejectedRecording {
    Output.error(rejected.description)
    throw ExitCode(65)
  }
}
