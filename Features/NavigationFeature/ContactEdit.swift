import ComposableCore
import ContactsClient

/// Edits a contact, new or existing: validates on save, reports save or cancel to its parent
/// through delegate actions, then dismisses itself.
@Reducer
public struct ContactEdit: Sendable {
  /// The form.
  @ObservableState
  public struct State: Equatable {
    /// The contact as edited so far.
    public var contact: Contact
    /// Whether this creates a contact rather than changing one.
    public var isNew: Bool
    /// Why the name cannot be saved.
    public var nameError: String?
    /// Why the email cannot be saved.
    public var emailError: String?

    /// A form for `contact`.
    public init(
      contact: Contact, isNew: Bool = false, nameError: String? = nil, emailError: String? = nil
    ) {
      self.contact = contact
      self.isNew = isNew
      self.nameError = nameError
      self.emailError = emailError
    }
  }

  /// What happens on the form.
  public enum Action: Equatable, Codable, ViewAction {
    /// What the user did on the screen.
    case view(View)
    /// What the parent needs to know.
    case delegate(Delegate)

    /// What the user does on the form's screen.
    @CasePathable
    public enum View: Equatable, Codable, BindableAction {
      /// A field changed.
      case binding(BindingAction<State>)
      /// Saves, if the fields are valid.
      case saveButtonTapped
      /// Leaves without saving.
      case cancelButtonTapped
    }

    /// Reports to the parent.
    @CasePathable
    public enum Delegate: Equatable, Codable, Sendable {
      /// The contact was saved with these fields.
      case saved(Contact)
      /// The edit was abandoned.
      case cancelled
    }
  }

  @Dependency(\.dismiss) var dismiss

  /// An edit reducer.
  public init() {}

  /// The form's logic.
  public var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    Reduce { state, action in
      switch action {
      case .view(.binding(\.contact.name)):
        state.nameError = nil
        return .none
      case .view(.binding(\.contact.email)):
        state.emailError = nil
        return .none
      case .view(.binding):
        return .none

      case .view(.saveButtonTapped):
        var contact = state.contact
        contact.name = contact.name.trimmingCharacters(in: .whitespaces)
        contact.email = contact.email.trimmingCharacters(in: .whitespaces)
        state.nameError = contact.name.isEmpty ? "A contact needs a name." : nil
        state.emailError =
          Self.isPlausibleEmail(contact.email) ? nil : "Enter a valid email address."
        guard state.nameError == nil, state.emailError == nil else { return .none }
        let saved = contact
        return .run { send in
          await send(.delegate(.saved(saved)))
          await dismiss()
        }

      case .view(.cancelButtonTapped):
        return .run { send in
          await send(.delegate(.cancelled))
          await dismiss()
        }

      case .delegate:
        return .none
      }
    }
  }

  /// An empty email is fine (it is optional); otherwise one `@` with a dotted domain after it.
  static func isPlausibleEmail(_ email: String) -> Bool {
    guard !email.isEmpty else { return true }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, let dot = parts[1].lastIndex(of: ".") else {
      return false
    }
    return dot != parts[1].startIndex && parts[1].index(after: dot) != parts[1].endIndex
  }
}

extension ContactEdit.State: BindingCodable {
  /// The editor's fields, named for recordings.
  public static let codableBindings: [BindingField<Self>] = [
    .field("contact.name", \.contact.name), .field("contact.email", \.contact.email),
    .field("contact.phone", \.contact.phone), .field("contact.notes", \.contact.notes),
    .field("contact.isFavorite", \.contact.isFavorite),
  ]
}
