import AnalyticsClientLive
import Foundation
import Testing

struct AnalyticsClientLiveTests {
  @Test func eventsAreAppendedAsJSONLinesInOrder() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("analytics-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let writer = JSONLinesAnalytics(file: directory.appendingPathComponent("analytics.jsonl"))
    for index in 0..<100 {
      writer.client.track(
        AnalyticsEvent(name: "event.\(index)", date: Date(timeIntervalSince1970: Double(index))))
    }
    writer.flush()
    let lines = try String(contentsOf: writer.file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 100)
    #expect(lines.first == #"{"date":"1970-01-01T00:00:00Z","name":"event.0"}"#)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let names = try lines.map { try decoder.decode(AnalyticsEvent.self, from: Data($0.utf8)).name }
    #expect(names == (0..<100).map { "event.\($0)" })
    let mode =
      try FileManager.default.attributesOfItem(atPath: writer.file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func aFileThatCannotBeWrittenIsIgnored() {
    let writer = JSONLinesAnalytics(
      file: URL(fileURLWithPath: "/proc/not-writable/analytics.jsonl"))
    writer.client.track(AnalyticsEvent(name: "dropped", date: Date()))
    writer.flush()
    #expect(!FileManager.default.fileExists(atPath: writer.file.path))
  }
}
