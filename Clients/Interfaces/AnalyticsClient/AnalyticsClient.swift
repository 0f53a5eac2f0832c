import Dependencies
import DependenciesMacros
import Foundation

/// One thing that happened in the app, as analytics records it.
public struct AnalyticsEvent: Codable, Equatable, Sendable {
  /// The action's name, cases joined by dots: `counter.incrementButtonTapped`.
  public var name: String
  /// When it happened.
  public var date: Date

  /// An event.
  public init(name: String, date: Date) {
    self.name = name
    self.date = date
  }
}

/// Records what happens in the app.
@DependencyClient
public struct AnalyticsClient: Sendable {
  /// Records an event. Synchronous and non-blocking, so events keep the order of the actions.
  public var track: @Sendable (_ event: AnalyticsEvent) -> Void
}

extension AnalyticsClient: TestDependencyKey {
  /// Fails the test on any unexpected use.
  public static let testValue = AnalyticsClient()
  /// Records nothing.
  public static let previewValue = AnalyticsClient(track: { _ in })
  /// Records nothing: analytics is off.
  public static let disabled = AnalyticsClient(track: { _ in })
}

extension DependencyValues {
  /// The analytics recorder.
  public var analyticsClient: AnalyticsClient {
    get { self[AnalyticsClient.self] }
    set { self[AnalyticsClient.self] = newValue }
  }
}
