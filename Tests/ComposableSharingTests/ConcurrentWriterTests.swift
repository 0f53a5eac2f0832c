import ConcurrencyExtras
import Foundation
import Testing

/// Twenty processes write one `fileStorage` file at once; whoever reads it at any moment finds
/// a whole value, and it ends holding the last complete write of one of them.
struct ConcurrentWriterTests {
  struct Payload: Codable {
    var writer: Int
    var sequence: Int
    var padding: [String]
  }

  let writer = URL(fileURLWithPath: CommandLine.arguments[0])
    .deletingLastPathComponent().appendingPathComponent("shared-writer")

  @Test func twentyProcessesNeverLeaveATornFile() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("writers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("shared.json")
    let writes = 25

    // Launched and read on a thread of its own, until the writers exit: the loop and the waits
    // block, and a test blocking one of the few threads every other test's tasks run on stalls
    // them all (the live HTTP tests' deadlines passed while this ran). Launched there too, so
    // that reading starts as the writers do, however long a busy machine takes to start a thread.
    let writer = writer
    let outcome = await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: Result {
            let processes = try (0..<20).map { index in
              let process = Process()
              process.executableURL = writer
              process.arguments = [file.path, "\(index)", "\(writes)"]
              try process.run()
              return process
            }
            var reads = 0
            var unreadable: [String] = []
            while processes.contains(where: \.isRunning) {
              if let data = try? Data(contentsOf: file) {
                reads += 1
                if (try? JSONDecoder().decode(Payload.self, from: data)) == nil {
                  unreadable.append(String(decoding: data.prefix(80), as: UTF8.self))
                }
              }
            }
            for process in processes { process.waitUntilExit() }
            return UncheckedSendable((processes, reads, unreadable))
          })
      }.start()
    }
    let (processes, reads, unreadable) = try outcome.get().value
    for process in processes {
      #expect(process.terminationStatus == 0)
    }
    #expect(unreadable.isEmpty)
    #expect(reads > 0)
    let last = try JSONDecoder().decode(Payload.self, from: Data(contentsOf: file))
    // Last writer wins: the file is one writer's final value, whole.
    #expect((0..<20).contains(last.writer))
    #expect(last.sequence == writes)
    #expect(last.padding.count == 200)
    // Nothing is left behind but the file and its lock.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(Set(leftovers) == ["shared.json", "shared.json.lock"])
  }
}
