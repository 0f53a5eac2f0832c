import ConcurrencyExtras
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The `composable` binary built beside this test bundle.
let binary: URL = URL(fileURLWithPath: CommandLine.arguments[0])
  .deletingLastPathComponent()
  .appendingPathComponent("composable")

/// What a run of the binary printed and how it ended.
struct Run {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// A data and a cache directory for one test, removed afterwards.
final class Sandbox: @unchecked Sendable {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent(
    "app-\(UUID().uuidString)")
  var data: URL { root.appendingPathComponent("data") }
  var cache: URL { root.appendingPathComponent("cache") }
  var config: URL { root.appendingPathComponent("config") }

  deinit { try? FileManager.default.removeItem(at: root) }

  /// The options that point the binary at this sandbox's directories.
  var directoryArguments: [String] {
    ["--data-dir", data.path, "--cache-dir", cache.path, "--config-dir", config.path]
  }

  /// Runs the binary with this sandbox's directories after the arguments.
  func run(
    _ arguments: [String], environment: [String: String] = [:], input: String? = nil
  ) async throws -> Run {
    try await runBinary(arguments + directoryArguments, environment: environment, input: input)
  }
}

extension Sandbox {
  /// A path for a recording inside the sandbox, whose directory exists.
  func recordingURL(_ name: String) throws -> URL {
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root.appendingPathComponent("\(name).jsonl")
  }

  /// Records `drive FEATURE --no-effects` fed `actions` (one JSON action each) to a new
  /// recording, and returns where it is.
  func recordDriving(
    _ feature: String, _ actions: [String], to name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> URL {
    let url = try recordingURL(name)
    let drive = try await run(
      ["drive", feature, "--no-effects", "--record", url.path],
      input: actions.map { $0 + "\n" }.joined())
    #expect(drive.status == 0, "\(drive.stderr)", sourceLocation: sourceLocation)
    return url
  }
}

/// Runs the binary; `input`, when given, is its standard input, otherwise it reads nothing.
///
/// The launch and the waits happen on a thread of their own: a test that blocked in them would
/// hold one of the few threads every other test's tasks run on, and the whole suite would stall
/// for as long as the binary runs.
func runBinary(
  _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) async throws -> Run {
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      continuation.resume(
        with: Result { try runBinaryBlocking(arguments, environment: environment, input: input) })
    }.start()
  }
}

private func runBinaryBlocking(
  _ arguments: [String], environment: [String: String], input: String?
) throws -> Run {
  let process = Process()
  process.executableURL = binary
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  env["NO_COLOR"] = "1"
  env["COMPOSABLE_ANALYTICS"] = nil
  // Never the user's own preferences, even for a run without a sandbox.
  env["XDG_CONFIG_HOME"] =
    FileManager.default.temporaryDirectory
    .appendingPathComponent("composable-tests-config").path
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  let stdin = Pipe()
  process.standardInput = input == nil ? FileHandle.nullDevice : stdin
  // Told of the exit through the handler, set before the launch: `waitUntilExit()` waits on a
  // run loop for a notification that, off the main thread and with other tests launching
  // processes, can be lost — the suite once hung there after the binary had exited.
  let exited = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in exited.signal() }
  try process.run()
  if let input {
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
  }
  // Read both pipes while the process runs, so a full pipe never blocks it.
  let stdout = LockIsolated(Data())
  let reader = Thread { stdout.setValue(out.fileHandleForReading.readDataToEndOfFile()) }
  reader.start()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  exited.wait()
  while !reader.isFinished { usleep(1000) }
  return Run(
    status: process.terminationStatus,
    stdout: String(decoding: stdout.value, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self)
  )
}

func decodeJSON(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8))
}
