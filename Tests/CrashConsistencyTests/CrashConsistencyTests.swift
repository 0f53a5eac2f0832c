import ContactsClient
import Foundation
import Testing
import TodosClient

#if canImport(Glibc)
  import Glibc
#endif

/// A process changing todos, contacts and a `.fileStorage` value is killed (SIGKILL) at random
/// moments, again and again: every change it said was saved must be on disk after each kill,
/// and no file may be torn (a torn file would be read as corrupt and kept aside).
struct CrashConsistencyTests {
  static let writer = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("crash-writer")

  @Test func randomKillsLoseNoAcknowledgedChangeNorTearAFile() async throws {
    let kills = Int(ProcessInfo.processInfo.environment["CRASH_KILLS"] ?? "") ?? 150
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var acknowledged: (todos: Set<String>, contacts: Set<String>, value: Int) = ([], [], 0)
    var next = 1
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<kills {
      let lines = try await runAndKill(
        directory: directory, start: next,
        after: .microseconds(Int.random(in: 0...20_000, using: &generator)))
      for line in lines {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let number = Int(parts[1]) else {
          Issue.record("unexpected line \(line)")
          continue
        }
        switch parts[0] {
        case "todo": acknowledged.todos.insert("todo \(number)")
        case "contact": acknowledged.contacts.insert("contact \(number)")
        default: acknowledged.value = max(acknowledged.value, number)
        }
        next = max(next, number + 1)
      }
      // What is on disk after this kill holds everything acknowledged so far, whole.
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(!files.contains { $0.contains("corrupt") }, "a torn file was kept aside: \(files)")
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      let todos = try read([TodoItem].self, "todos.json", in: directory, decoder)
      let contacts = try read([Contact].self, "contacts.json", in: directory, decoder)
      let value = try read(Int.self, "value.json", in: directory, decoder) ?? 0
      #expect(acknowledged.todos.isSubset(of: Set((todos ?? []).map(\.title))))
      #expect(acknowledged.contacts.isSubset(of: Set((contacts ?? []).map(\.name))))
      #expect(value >= acknowledged.value)
    }
    // Every run got to work before it was killed.
    #expect(acknowledged.todos.count >= kills)
    print(
      "crash consistency: \(kills) kills, acknowledged \(acknowledged.todos.count) todos, "
        + "\(acknowledged.contacts.count) contacts, value \(acknowledged.value); lost 0, torn 0")
  }

  /// The file's value, `nil` when it does not exist yet; a file that does not decode fails.
  private func read<Value: Decodable>(
    _: Value.Type, _ name: String, in directory: URL, _ decoder: JSONDecoder
  ) throws -> Value? {
    let url = directory.appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    return try decoder.decode(Value.self, from: Data(contentsOf: url))
  }

  /// Starts the writer, lets it run for `delay`, kills it, and returns the lines it printed.
  ///
  /// On a thread of its own: the waits block, and a test blocking one of the few threads every
  /// other test's tasks run on stalls them all (the live HTTP tests' deadlines passed).
  private func runAndKill(directory: URL, start: Int, after delay: Duration) async throws
    -> [String]
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            let process = Process()
            process.executableURL = Self.writer
            process.arguments = [directory.path, String(start)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Killed once it is at work (its first change saved), however long it took to start
            // on a loaded machine, then `delay` into what follows.
            var data = Data()
            while !data.contains(UInt8(ascii: "\n")) {
              let chunk = output.fileHandleForReading.availableData
              if chunk.isEmpty { break }
              data += chunk
            }
            let (seconds, attoseconds) = delay.components
            usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            data += output.fileHandleForReading.readDataToEndOfFile()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
          })
      }.start()
    }
  }
}
