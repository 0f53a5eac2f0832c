import ComposableCore
import SignUpClient

/// A sign-up form: email, password, confirmation and terms, validated as the user types, with
/// errors shown only for fields the user has touched, submitted through `SignUpClient`.
@Reducer
public struct SignUpForm: Sendable {
  /// The form.
  @ObservableState
  public struct State: Equatable {
    /// The email field.
    public var email: String
    /// The password field.
    public var password: String
    /// The password confirmation field.
    public var confirmPassword: String
    /// The accept-terms checkbox.
    public var acceptTerms: Bool
    /// Fields the user has edited, or all of them once submission was attempted.
    public var touched: Set<SignUpField>
    /// Errors the server reported for fields, until the user edits them.
    public var serverErrors: [SignUpField: String]
    /// Whether a submission is in flight.
    public var isSubmitting: Bool
    /// The outcome of a submission.
    @Presents public var alert: AlertState<Action.Alert>?
    /// The email of the account made here, kept across launches and shown by the app.
    @Shared(.accountEmail) public var accountEmail

    /// An empty form.
    public init(
      email: String = "",
      password: String = "",
      confirmPassword: String = "",
      acceptTerms: Bool = false,
      touched: Set<SignUpField> = [],
      serverErrors: [SignUpField: String] = [:],
      isSubmitting: Bool = false,
      alert: AlertState<Action.Alert>? = nil
    ) {
      self.email = email
      self.password = password
      self.confirmPassword = confirmPassword
      self.acceptTerms = acceptTerms
      self.touched = touched
      self.serverErrors = serverErrors
      self.isSubmitting = isSubmitting
      self.alert = alert
    }

    /// The error to show under a field: only once it is touched; a server error wins.
    public func error(for field: SignUpField) -> String? {
      guard touched.contains(field) else { return nil }
      return serverErrors[field] ?? validationError(for: field)
    }

    /// What is wrong with a field by the form's own rules, touched or not.
    public func validationError(for field: SignUpField) -> String? {
      switch field {
      case .email: SignUpValidation.email(email)
      case .password: SignUpValidation.password(password)
      case .confirmPassword: SignUpValidation.confirmation(confirmPassword, of: password)
      case .acceptTerms: acceptTerms ? nil : "Accept the terms to continue."
      }
    }

    /// Whether every field passes the form's rules and the server has no objection left.
    public var isValid: Bool {
      SignUpField.allCases.allSatisfy { validationError(for: $0) == nil } && serverErrors.isEmpty
    }

    /// Whether the submit button is enabled.
    public var canSubmit: Bool { isValid && !isSubmitting }
  }

  /// What happens on the form.
  public enum Action: Equatable, Codable, ViewAction {
    /// What the user did on the screen.
    case view(View)
    /// The server's answer.
    case submitResponse(Result<SignUpResponse, SignUpError>)
    /// The alert's buttons.
    case alert(PresentationAction<Alert>)
    /// What the parent needs to know.
    case delegate(Delegate)

    /// What the user does on the form's screen.
    @CasePathable
    public enum View: Equatable, Codable, BindableAction {
      /// A field was edited.
      case binding(BindingAction<State>)
      /// Submits the form.
      case submitButtonTapped
    }

    /// Reports to the parent.
    @CasePathable
    public enum Delegate: Equatable, Codable, Sendable {
      /// An account was created.
      case accountCreated(SignUpResponse)
    }

    /// The buttons of the submission alerts.
    @CasePathable
    public enum Alert: Equatable, Codable, Sendable {
      /// Submits again after a failure, with the same input.
      case retryButtonTapped
    }
  }

  enum CancelID { case submission }

  @Dependency(\.signUpClient) var signUpClient

  /// A sign-up form reducer.
  public init() {}

  /// The form's logic.
  public var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding(let binding)):
        if let field = SignUpField(editedBy: binding) {
          state.touched.insert(field)
          state.serverErrors[field] = nil
        }
        return .none

      case .view(.submitButtonTapped), .alert(.presented(.retryButtonTapped)):
        state.touched = Set(SignUpField.allCases)
        guard state.canSubmit else { return .none }
        state.isSubmitting = true
        let request = SignUpRequest(
          email: state.email.trimmingCharacters(in: .whitespaces),
          password: state.password,
          acceptedTerms: state.acceptTerms
        )
        return .run { send in
          await send(.submitResponse(.success(try await signUpClient.submit(request))))
        } catch: { error, send in
          await send(.submitResponse(.failure(error as? SignUpError ?? .offline)))
        }
        .cancellable(id: CancelID.submission, cancelInFlight: true)

      case .submitResponse(.success(let account)):
        state = State(
          alert: AlertState {
            TextState("Welcome!")
          } message: {
            TextState("Your account for \(account.email) is ready.")
          }
        )
        state.$accountEmail.withLock { $0 = account.email }
        return .send(.delegate(.accountCreated(account)))

      case .submitResponse(.failure(.emailTaken)):
        state.isSubmitting = false
        state.serverErrors[.email] = "An account with this email already exists."
        return .none

      case .submitResponse(.failure(.invalidFields(let errors))):
        state.isSubmitting = false
        state.serverErrors.merge(errors) { _, new in new }
        return .none

      case .submitResponse(.failure(let error)):
        state.isSubmitting = false
        state.alert = .failure(
          title: "Sign-up failed",
          message: TextState(error.errorDescription ?? "Something went wrong."),
          retry: .retryButtonTapped
        )
        return .none

      case .alert, .delegate:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension SignUpField {
  /// The field a binding action edits, if it edits one.
  init?(editedBy binding: BindingAction<SignUpForm.State>) {
    switch binding.keyPath {
    case \SignUpForm.State.email: self = .email
    case \SignUpForm.State.password: self = .password
    case \SignUpForm.State.confirmPassword: self = .confirmPassword
    case \SignUpForm.State.acceptTerms: self = .acceptTerms
    default: return nil
    }
  }
}

/// The form's rules, one function per field, each returning the message to show or `nil`.
public enum SignUpValidation {
  /// An email has one `@`, something before it, and a domain with a dot after it.
  public static func email(_ email: String) -> String? {
    let trimmed = email.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return "Enter your email." }
    let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !trimmed.contains(" "),
      let dot = parts[1].lastIndex(of: "."), dot != parts[1].startIndex,
      parts[1].index(after: dot) != parts[1].endIndex
    else { return "Enter a valid email address." }
    return nil
  }

  /// A password has at least 8 characters, with a letter and a digit.
  public static func password(_ password: String) -> String? {
    guard !password.isEmpty else { return "Choose a password." }
    guard password.count >= 8 else { return "Use at least 8 characters." }
    guard password.contains(where: \.isLetter), password.contains(where: \.isNumber) else {
      return "Use at least one letter and one digit."
    }
    return nil
  }

  /// The confirmation repeats the password.
  public static func confirmation(_ confirmation: String, of password: String) -> String? {
    guard !confirmation.isEmpty else { return "Repeat your password." }
    return confirmation == password ? nil : "Passwords do not match."
  }
}

extension SignUpForm.State: BindingCodable {
  /// The form's fields, named for recordings.
  public static let codableBindings: [BindingField<Self>] = [
    .field("email", \.email), .field("password", \.password),
    .field("confirmPassword", \.confirmPassword), .field("acceptTerms", \.acceptTerms),
  ]
}

extension SharedReaderKey where Self == AppStorageKey<String?>.Default {
  /// The email of the account made on the sign-up tab, kept across launches; none until then.
  public static var accountEmail: Self {
    Self[.appStorage("account.email"), default: nil]
  }
}

extension SignUpForm.State: RecordingSecrets {
  /// The passwords, which a recording writes as stand-ins.
  public static var secretFields: [WritableKeyPath<Self, String>] {
    [\.password, \.confirmPassword]
  }
}
