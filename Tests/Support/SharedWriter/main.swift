// Writes one `fileStorage` file over and over, as one of many processes in
// `ComposableSharingTests`: `shared-writer FILE WRITER COUNT`.
import ComposableSharing
import Foundation

struct Payload: Codable, Equatable, Sendable {
  var writer: Int
  var sequence: Int
  /// Big enough that a torn write would show as invalid JSON.
  var padding: [String]
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let writer = Int(arguments[2]), let count = Int(arguments[3]) else {
  FileHandle.standardError.write(Data("usage: shared-writer FILE WRITER COUNT\n".utf8))
  exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
let payload = Shared(
  wrappedValue: Payload(writer: writer, sequence: 0, padding: []), .fileStorage(url))
for sequence in 1...count {
  payload.withLock {
    $0 = Payload(
      writer: writer, sequence: sequence,
      padding: Array(repeating: "writer \(writer) line \(sequence)", count: 200))
  }
  // Write now rather than at the end of the save interval: every change reaches the disk.
  try await payload.save()
}
