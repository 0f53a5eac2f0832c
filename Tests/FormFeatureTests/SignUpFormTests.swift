import ComposableCore
import ComposableTestSupport
import FormFeature
import SignUpClient
import Testing

@MainActor
struct SignUpFormTests {
  static let filled = SignUpForm.State(
    email: "ada@example.com",
    password: "engine42",
    confirmPassword: "engine42",
    acceptTerms: true,
    touched: Set(SignUpField.allCases)
  )

  func makeStore(
    _ state: SignUpForm.State = SignUpForm.State(),
    submit: @escaping @Sendable (SignUpRequest) async throws -> SignUpResponse = { _ in
      SignUpResponse(userID: "unused", email: "unused")
    }
  ) -> TestStoreOf<SignUpForm> {
    TestStore(initialState: state) {
      SignUpForm()
    } withDependencies: {
      $0.signUpClient.submit = submit
    }
  }

  @Test func errorsShowOnlyForTouchedFields() async {
    let store = makeStore()
    #expect(store.state.error(for: .email) == nil)
    #expect(store.state.validationError(for: .email) == "Enter your email.")
    await store.send(.view(.set(\.email, "ada@"))) {
      $0.email = "ada@"
      $0.touched = [.email]
    }
    #expect(store.state.error(for: .email) == "Enter a valid email address.")
    #expect(store.state.error(for: .password) == nil)
    #expect(!store.state.isValid)
  }

  @Test func everyFieldFollowsItsRule() async {
    let store = makeStore()
    await store.send(.view(.set(\.email, "ada@example.com"))) {
      $0.email = "ada@example.com"
      $0.touched = [.email]
    }
    await store.send(.view(.set(\.password, "short1"))) {
      $0.password = "short1"
      $0.touched.insert(.password)
    }
    #expect(store.state.error(for: .password) == "Use at least 8 characters.")
    await store.send(.view(.set(\.password, "lettersonly"))) { $0.password = "lettersonly" }
    #expect(store.state.error(for: .password) == "Use at least one letter and one digit.")
    await store.send(.view(.set(\.password, "letters4ever"))) { $0.password = "letters4ever" }
    #expect(store.state.error(for: .password) == nil)
    await store.send(.view(.set(\.confirmPassword, "letters4evr"))) {
      $0.confirmPassword = "letters4evr"
      $0.touched.insert(.confirmPassword)
    }
    #expect(store.state.error(for: .confirmPassword) == "Passwords do not match.")
    await store.send(.view(.set(\.confirmPassword, "letters4ever"))) {
      $0.confirmPassword = "letters4ever"
    }
    #expect(store.state.error(for: .confirmPassword) == nil)
    #expect(!store.state.isValid)
    await store.send(.view(.set(\.acceptTerms, true))) {
      $0.acceptTerms = true
      $0.touched.insert(.acceptTerms)
    }
    #expect(store.state.isValid)
    #expect(store.state.canSubmit)
  }

  @Test func validationRules() {
    #expect(SignUpValidation.email("") == "Enter your email.")
    #expect(SignUpValidation.email("plain") == "Enter a valid email address.")
    #expect(SignUpValidation.email("@example.com") == "Enter a valid email address.")
    #expect(SignUpValidation.email("ada@localhost") == "Enter a valid email address.")
    #expect(SignUpValidation.email("ada@example.") == "Enter a valid email address.")
    #expect(SignUpValidation.email("a da@example.com") == "Enter a valid email address.")
    #expect(SignUpValidation.email("a@b@example.com") == "Enter a valid email address.")
    #expect(SignUpValidation.email(" ada@example.com ") == nil)
    #expect(SignUpValidation.password("") == "Choose a password.")
    #expect(SignUpValidation.password("1234567") == "Use at least 8 characters.")
    #expect(SignUpValidation.password("12345678") == "Use at least one letter and one digit.")
    #expect(SignUpValidation.password("abc12345") == nil)
    #expect(SignUpValidation.confirmation("", of: "x") == "Repeat your password.")
    #expect(SignUpValidation.confirmation("y", of: "x") == "Passwords do not match.")
  }

  @Test func submittingAnInvalidFormOnlyRevealsTheErrors() async {
    let store = makeStore()
    await store.send(.view(.submitButtonTapped)) {
      $0.touched = Set(SignUpField.allCases)
    }
    #expect(store.state.error(for: .acceptTerms) == "Accept the terms to continue.")
  }

  @Test func successShowsAConfirmationAndClearsTheForm() async {
    let sent = LockIsolated<SignUpRequest?>(nil)
    let clock = TestClock()
    let store = makeStore(Self.filled) { request in
      sent.setValue(request)
      try await clock.sleep(for: .seconds(1))
      return SignUpResponse(userID: "u1", email: request.email)
    }
    await store.send(.view(.submitButtonTapped)) { $0.isSubmitting = true }
    // A second tap while submitting does nothing.
    await store.send(.view(.submitButtonTapped))
    await clock.advance(by: .seconds(1))
    await store.receive(\.submitResponse.success) {
      $0 = SignUpForm.State(
        alert: AlertState {
          TextState("Welcome!")
        } message: {
          TextState("Your account for ada@example.com is ready.")
        }
      )
      $0.$accountEmail.withLock { $0 = "ada@example.com" }
    }
    await store.receive(
      \.delegate.accountCreated, SignUpResponse(userID: "u1", email: "ada@example.com"))
    #expect(
      sent.value
        == SignUpRequest(email: "ada@example.com", password: "engine42", acceptedTerms: true)
    )
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func aTakenEmailIsShownOnTheEmailField() async {
    let store = makeStore(Self.filled) { _ in throw SignUpError.emailTaken }
    await store.send(.view(.submitButtonTapped)) { $0.isSubmitting = true }
    await store.receive(\.submitResponse.failure, .emailTaken) {
      $0.isSubmitting = false
      $0.serverErrors = [.email: "An account with this email already exists."]
    }
    #expect(store.state.error(for: .email) == "An account with this email already exists.")
    #expect(!store.state.canSubmit)
    // Editing the field clears the server's objection.
    await store.send(.view(.set(\.email, "ada2@example.com"))) {
      $0.email = "ada2@example.com"
      $0.serverErrors = [:]
    }
    #expect(store.state.canSubmit)
  }

  @Test func fieldErrorsFromTheServerLandOnTheirFields() async {
    let store = makeStore(Self.filled) { _ in
      throw SignUpError.invalidFields([.password: "This password is too common."])
    }
    await store.send(.view(.submitButtonTapped)) { $0.isSubmitting = true }
    await store.receive(\.submitResponse.failure) {
      $0.isSubmitting = false
      $0.serverErrors = [.password: "This password is too common."]
    }
    #expect(store.state.error(for: .password) == "This password is too common.")
    #expect(store.state.email == "ada@example.com")
  }

  @Test func otherFailuresShowAnAlertAndKeepTheInput() async {
    let attempts = LockIsolated(0)
    let store = makeStore(Self.filled) { request in
      let attempt = attempts.withValue {
        $0 += 1
        return $0
      }
      if attempt == 1 { throw SignUpError.timeout }
      return SignUpResponse(userID: "u2", email: request.email)
    }
    await store.send(.view(.submitButtonTapped)) { $0.isSubmitting = true }
    await store.receive(\.submitResponse.failure, .timeout) {
      $0.isSubmitting = false
      $0.alert = .failure(
        title: "Sign-up failed",
        message: TextState("The sign-up server did not answer in time."),
        retry: .retryButtonTapped
      )
    }
    #expect(store.state.email == "ada@example.com")
    await store.send(\.alert.retryButtonTapped) {
      $0.alert = nil
      $0.isSubmitting = true
    }
    await store.receive(\.submitResponse.success) {
      $0 = SignUpForm.State(
        alert: AlertState {
          TextState("Welcome!")
        } message: {
          TextState("Your account for ada@example.com is ready.")
        }
      )
      $0.$accountEmail.withLock { $0 = "ada@example.com" }
    }
    await store.receive(\.delegate.accountCreated)
  }

  @Test func anUnexpectedErrorIsReportedAsOffline() async {
    struct Unexpected: Error {}
    let store = makeStore(Self.filled) { _ in throw Unexpected() }
    await store.send(.view(.submitButtonTapped)) { $0.isSubmitting = true }
    await store.receive(\.submitResponse.failure, .offline) {
      $0.isSubmitting = false
      $0.alert = .failure(
        title: "Sign-up failed",
        message: TextState("The sign-up server could not be reached."),
        retry: .retryButtonTapped
      )
    }
  }
}
