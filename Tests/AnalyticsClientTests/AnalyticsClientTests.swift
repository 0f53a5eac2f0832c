import AnalyticsClient
import Foundation
import Testing

struct AnalyticsClientTests {
  @Test func theTestValueFailsWhenUsed() {
    withKnownIssue {
      AnalyticsClient.testValue.track(AnalyticsEvent(name: "x", date: Date()))
    } matching: { issue in
      issue.description.contains("Unimplemented: 'AnalyticsClient.track'")
    }
  }

  @Test func disabledRecordsNothingAndDoesNotFail() {
    AnalyticsClient.disabled.track(AnalyticsEvent(name: "x", date: Date()))
  }
}
