import Dependencies
import NumberFactClient
import Testing

struct NumberFactClientTests {
  @Test func previewValueAnswersAtOnce() async throws {
    #expect(try await NumberFactClient.previewValue.fetch(3) == "3 is a good number.")
  }

  @Test func testValueFailsTheTestWhenUsed() async {
    await withKnownIssue {
      _ = try? await NumberFactClient.testValue.fetch(1)
    } matching: { issue in
      issue.description.contains("Unimplemented: 'NumberFactClient.fetch'")
    }
  }

  @Test func errorsDescribeThemselves() {
    #expect(NumberFactError.httpStatus(404).errorDescription?.contains("404") == true)
    #expect(
      NumberFactError.timeout.errorDescription == "The number facts server did not answer in time.")
  }
}
