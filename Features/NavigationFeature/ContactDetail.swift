import ComposableCore
import ContactsClient

/// Shows one contact, with edit, favourite and a destructive delete behind a confirmation.
@Reducer
public struct ContactDetail: Sendable {
  /// The detail screen.
  @ObservableState
  public struct State: Equatable {
    /// The contact shown.
    public var contact: Contact
    /// The delete confirmation, while it is open.
    @Presents public var confirmationDialog: ConfirmationDialogState<Action.Dialog>?

    /// A detail screen for `contact`.
    public init(contact: Contact, confirmationDialog: ConfirmationDialogState<Action.Dialog>? = nil)
    {
      self.contact = contact
      self.confirmationDialog = confirmationDialog
    }
  }

  /// What happens on the detail screen.
  public enum Action: Equatable, Codable {
    /// Asks the parent to open the editor.
    case editButtonTapped
    /// Stars or unstars the contact.
    case favoriteButtonTapped
    /// Asks for confirmation before deleting.
    case deleteButtonTapped
    /// The confirmation's buttons.
    case confirmationDialog(PresentationAction<Dialog>)
    /// What the parent needs to know.
    case delegate(Delegate)

    /// The confirmation's destructive choice.
    @CasePathable
    public enum Dialog: Equatable, Codable, Sendable {
      /// Delete the contact.
      case confirmDeletion
    }

    /// Reports to the parent.
    @CasePathable
    public enum Delegate: Equatable, Codable, Sendable {
      /// The user wants to edit the contact.
      case editRequested(Contact)
      /// The contact's favourite star changed.
      case favoriteToggled(Contact)
      /// The user confirmed deleting the contact.
      case deleteConfirmed(id: Contact.ID)
    }
  }

  /// A detail reducer.
  public init() {}

  /// The detail screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editButtonTapped:
        return .send(.delegate(.editRequested(state.contact)))
      case .favoriteButtonTapped:
        state.contact.isFavorite.toggle()
        return .send(.delegate(.favoriteToggled(state.contact)))
      case .deleteButtonTapped:
        state.confirmationDialog = .deleteContact(named: state.contact.name)
        return .none
      case .confirmationDialog(.presented(.confirmDeletion)):
        return .send(.delegate(.deleteConfirmed(id: state.contact.id)))
      case .confirmationDialog, .delegate:
        return .none
      }
    }
    .ifLet(\.$confirmationDialog, action: \.confirmationDialog)
  }
}

extension ConfirmationDialogState where Action == ContactDetail.Action.Dialog {
  /// "Delete Ada?" with a destructive Delete and a Cancel.
  public static func deleteContact(named name: String) -> Self {
    ConfirmationDialogState(titleVisibility: .visible) {
      TextState("Delete \(name)?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("This cannot be undone.")
    }
  }
}

/// How the book lists contacts.
public struct BookSettings: Equatable, Codable, Sendable {
  /// Favourites at the top.
  public var favoritesFirst: Bool
  /// Emails under names.
  public var showEmails: Bool

  /// Settings; favourites first and emails shown by default.
  public init(favoritesFirst: Bool = true, showEmails: Bool = true) {
    self.favoritesFirst = favoritesFirst
    self.showEmails = showEmails
  }
}

/// The settings screen, pushed from the root.
@Reducer
public struct ContactSettings: Sendable {
  /// The settings being edited.
  @ObservableState
  public struct State: Equatable {
    /// The settings.
    public var settings: BookSettings

    /// A screen showing `settings`.
    public init(settings: BookSettings = BookSettings()) {
      self.settings = settings
    }
  }

  /// What happens on the settings screen.
  public enum Action: Equatable, Codable, BindableAction {
    /// A setting changed.
    case binding(BindingAction<State>)
    /// Reports the new settings to the parent.
    case delegate(Delegate)

    /// Reports to the parent.
    @CasePathable
    public enum Delegate: Equatable, Codable, Sendable {
      /// The settings are now these.
      case changed(BookSettings)
    }
  }

  /// A settings reducer.
  public init() {}

  /// The settings' logic.
  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .send(.delegate(.changed(state.settings)))
      case .delegate:
        return .none
      }
    }
  }
}

extension ContactSettings.State: BindingCodable {
  /// The settings screen's switches, named for recordings.
  public static let codableBindings: [BindingField<Self>] = [
    .field("settings.favoritesFirst", \.settings.favoritesFirst),
    .field("settings.showEmails", \.settings.showEmails),
  ]
}
