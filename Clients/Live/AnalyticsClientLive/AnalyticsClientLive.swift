@_exported import AnalyticsClient
import Dependencies
import FileSystem
import Foundation

/// Appends each event as one JSON line to a file, on a serial queue, so tracking never blocks
/// the app and lines keep the order of the events. A failed write drops the event: analytics
/// must never break the app.
public final class JSONLinesAnalytics: Sendable {
  /// The file the events go to.
  public let file: URL
  private let queue = DispatchQueue(label: "composable.analytics")

  /// A writer to `file`; the file and its directory are created on the first event.
  public init(file: URL) {
    self.file = file
  }

  /// The client that writes here.
  public var client: AnalyticsClient {
    AnalyticsClient { [self] event in write(event) }
  }

  /// Waits until every event tracked so far is on disk: before exiting, and in tests.
  public func flush() {
    queue.sync {}
  }

  private func write(_ event: AnalyticsEvent) {
    let file = self.file
    queue.async {
      let encoder = JSONEncoder()
      encoder.dateEncodingStrategy = .iso8601
      encoder.outputFormatting = [.sortedKeys]
      guard var line = try? encoder.encode(event) else { return }
      line.append(UInt8(ascii: "\n"))
      try? FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(),
        withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700]
      )
      let descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return }
      _ = POSIXFile.writeAll(line, to: descriptor)
      close(descriptor)
    }
  }

  /// `analytics.jsonl` in the app's data directory.
  public static func defaultFile(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    AppDirectories.data(environment: environment).appendingPathComponent("analytics.jsonl")
  }
}

extension AnalyticsClient: DependencyKey {
  /// Off unless the app turns it on (`COMPOSABLE_ANALYTICS=1`, or explicit wiring).
  public static var liveValue: AnalyticsClient {
    ProcessInfo.processInfo.environment["COMPOSABLE_ANALYTICS"] == "1"
      ? JSONLinesAnalytics(file: JSONLinesAnalytics.defaultFile()).client : .disabled
  }
}
