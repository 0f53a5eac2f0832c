import Dependencies
import Foundation
import SignUpClient
import Testing

struct SignUpClientTests {
  @Test func testValueFailsTheTestWhenUsed() async {
    await withKnownIssue {
      _ = try? await SignUpClient.testValue.submit(
        SignUpRequest(email: "a@b.co", password: "password1", acceptedTerms: true)
      )
    } matching: { issue in
      issue.description.contains("Unimplemented: 'SignUpClient.submit'")
    }
  }

  @Test func fieldErrorsDescribeEveryField() {
    let error = SignUpError.invalidFields([.password: "too weak", .email: "blocked domain"])
    #expect(error.errorDescription == "email: blocked domain; password: too weak")
  }

  @Test func requestsEncodeTheWayTheServerExpects() throws {
    let request = SignUpRequest(email: "a@b.co", password: "password1", acceptedTerms: true)
    let json =
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(request)) as? [String: Any]
    #expect(json?["email"] as? String == "a@b.co")
    #expect(json?["acceptedTerms"] as? Bool == true)
  }
}
