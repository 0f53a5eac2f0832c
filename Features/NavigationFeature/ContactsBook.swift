import ComposableCore
import ContactsClient
import StoredList

/// A contacts book: the root list, a stack (detail, edit, settings), an add sheet, and an alert
/// when loading or saving fails.
@Reducer
public struct ContactsBook: Sendable {
  /// The book.
  @ObservableState
  public struct State: Equatable {
    /// Every contact, in stored order.
    public var contacts: IdentifiedArrayOf<Contact>
    /// The screens pushed over the list; start with some for a deep link.
    public var path: StackState<Path.State>
    /// The add sheet.
    @Presents public var destination: Destination.State?
    /// Why loading or saving failed. It is shown over the add sheet rather than in its place: a
    /// save can fail while a new contact is being typed, and the draft must not be lost.
    @Presents public var alert: AlertState<Action.Alert>?
    /// How the list shows.
    public var settings: BookSettings
    /// Whether the stored contacts are loading.
    public var isLoading: Bool
    /// Whether they have been loaded once.
    public var hasLoaded: Bool
    /// Changes the book shows that are not saved yet, oldest first; the first is being saved.
    /// One at a time, in order, so that a contact starred just after it was edited is stored
    /// starred, not as the edit left it.
    public var unsavedChanges: [UnsavedChange]

    /// A book, empty unless given contacts.
    public init(
      contacts: IdentifiedArrayOf<Contact> = [],
      path: StackState<Path.State> = StackState(),
      destination: Destination.State? = nil,
      alert: AlertState<Action.Alert>? = nil,
      settings: BookSettings = BookSettings(),
      isLoading: Bool = false,
      hasLoaded: Bool = false,
      unsavedChanges: [UnsavedChange] = []
    ) {
      self.contacts = contacts
      self.path = path
      self.destination = destination
      self.alert = alert
      self.settings = settings
      self.isLoading = isLoading
      self.hasLoaded = hasLoaded
      self.unsavedChanges = unsavedChanges
    }

    /// The contacts as the list shows them: favourites first when the setting says so, then by
    /// name.
    public var sortedContacts: [Contact] {
      contacts.sorted { lhs, rhs in
        if settings.favoritesFirst, lhs.isFavorite != rhs.isFavorite { return lhs.isFavorite }
        return lhs.name.localizedCaseInsensitiveCompare(rhs.name) == .orderedAscending
      }
    }
  }

  /// A change waiting to be saved, with the contacts as they were before it.
  public struct UnsavedChange: Equatable, Sendable {
    /// What to apply to the stored contacts.
    public var change: ContactChange
    /// The contacts before the change, which the book goes back to if it cannot be saved.
    public var previous: IdentifiedArrayOf<Contact>

    /// A change and the contacts before it.
    public init(_ change: ContactChange, previous: IdentifiedArrayOf<Contact>) {
      self.change = change
      self.previous = previous
    }
  }

  /// The screens of the stack.
  @Reducer(state: .equatable, action: .equatable, .codable)
  public enum Path {
    /// A contact.
    case detail(ContactDetail)
    /// A contact's editor.
    case edit(ContactEdit)
    /// The settings.
    case settings(ContactSettings)
  }

  /// The sheets the book presents over itself.
  @Reducer(state: .equatable, action: .equatable, .codable)
  public enum Destination {
    /// The add-contact sheet.
    case add(ContactEdit)
  }

  /// What happens in the book.
  public enum Action: Equatable, Codable {
    /// The book appeared: loads the contacts once, and from then on whenever they change.
    case onAppear
    /// The stored contacts changed, perhaps in another process: loads them again.
    case storedContactsChanged
    /// The stored contacts, or why they could not be read.
    case loadResponse(Result<[Contact], ContactsError>)
    /// Opens a contact.
    case contactTapped(id: Contact.ID)
    /// Opens the add sheet.
    case addButtonTapped
    /// Pushes the settings.
    case settingsButtonTapped
    /// Goes back to the list from any depth.
    case popToRootButtonTapped
    /// An action of the stack.
    case path(StackActionOf<Path>)
    /// An action of the add sheet.
    case destination(PresentationAction<Destination.Action>)
    /// A button of the failure alert.
    case alert(PresentationAction<Alert>)
    /// The oldest unsaved change was saved.
    case saved
    /// The oldest unsaved change could not be saved; the list goes back to how it is stored.
    case saveFailed(ContactsError)

    /// The failure alert's buttons.
    @CasePathable
    public enum Alert: Equatable, Codable, Sendable {
      /// Loads the contacts again.
      case retryLoadButtonTapped
    }
  }

  enum CancelID { case changes }

  @Dependency(\.contactsClient) var contactsClient
  @Dependency(\.uuid) var uuid

  /// A book reducer.
  public init() {}

  /// The book's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        guard !state.hasLoaded, !state.isLoading else { return .none }
        return .merge(
          load(&state),
          .run { send in
            for await _ in contactsClient.changes() { await send(.storedContactsChanged) }
          }
          .cancellable(id: CancelID.changes, cancelInFlight: true)
        )

      case .storedContactsChanged:
        return load(&state)

      case .loadResponse(.success(let contacts)):
        let isFirstLoad = !state.hasLoaded
        state.isLoading = false
        state.hasLoaded = true
        // A contact deleted elsewhere goes, and the screens showing it with it.
        let merged = IdentifiedArray(
          loaded: contacts, replaying: state.unsavedChanges.map(\.change),
          keepingUnstoredFrom: isFirstLoad ? state.contacts : nil)
        guard merged != state.contacts else { return .none }
        let previous = state.contacts
        state.contacts = merged
        Self.showListChange(from: previous, &state)
        return .none

      case .loadResponse(.failure(let error)):
        state.isLoading = false
        state.hasLoaded = true
        state.alert = .failure(
          title: "Could not load your contacts",
          message: TextState(error.errorDescription ?? "Something went wrong."),
          retry: .retryLoadButtonTapped
        )
        return .none

      case .alert(.presented(.retryLoadButtonTapped)):
        return load(&state)

      case .contactTapped(let id):
        guard let contact = state.contacts[id: id] else { return .none }
        state.path.append(.detail(ContactDetail.State(contact: contact)))
        return .none

      case .addButtonTapped:
        state.destination = .add(
          ContactEdit.State(contact: Contact(id: uuid(), name: ""), isNew: true))
        return .none

      case .settingsButtonTapped:
        state.path.append(.settings(ContactSettings.State(settings: state.settings)))
        return .none

      case .popToRootButtonTapped:
        state.path.removeAll()
        return .none

      case .path(.element(_, .detail(.delegate(.editRequested(let contact))))):
        state.path.append(.edit(ContactEdit.State(contact: contact)))
        return .none

      case .path(.element(_, .detail(.delegate(.favoriteToggled(let contact))))),
        .path(.element(_, .edit(.delegate(.saved(let contact))))),
        .destination(.presented(.add(.delegate(.saved(let contact))))):
        let previous = state.contacts
        state.contacts[id: contact.id] = contact
        Self.showListChange(from: previous, &state)
        return save(.save(contact), previous: previous, &state)

      case .path(.element(let elementID, .detail(.delegate(.deleteConfirmed(let id))))):
        let previous = state.contacts
        state.contacts.remove(id: id)
        state.path.pop(from: elementID)
        return save(.delete(id: id), previous: previous, &state)

      case .path(.element(_, .settings(.delegate(.changed(let settings))))):
        state.settings = settings
        return .none

      case .saved:
        guard !state.unsavedChanges.isEmpty else { return .none }
        state.unsavedChanges.removeFirst()
        return saveOldestChange(state)

      case .saveFailed(let error):
        // The changes after the failed one were made on it, so they are undone with it: the
        // list goes back to before the oldest unsaved change, which is how it is stored.
        let undone = state.unsavedChanges.count
        if let oldest = state.unsavedChanges.first {
          let unsaved = state.contacts
          state.contacts = oldest.previous
          Self.showListChange(from: unsaved, &state)
        }
        state.unsavedChanges = []
        state.alert = AlertState {
          TextState(
            undone > 1
              ? "Your last \(undone) changes were not saved" : "Your change was not saved"
          )
        } message: {
          TextState(error.errorDescription ?? "Something went wrong.")
        }
        return .none

      case .path, .destination, .alert:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
    .ifLet(\.$destination, action: \.destination)
    .ifLet(\.$alert, action: \.alert)
  }

  /// Makes the pushed screens agree with a change to the list, which held `previous` before it:
  /// a detail shows its contact as now listed, and the stack is popped from the first screen
  /// whose contact the change took away (a contact whose add was undone). An editor keeps its
  /// draft, and a screen whose contact the list did not hold (a deep link opened before the
  /// contacts loaded) is left alone.
  private static func showListChange(
    from previous: IdentifiedArrayOf<Contact>, _ state: inout State
  ) {
    for id in state.path.ids {
      let shown: Contact
      switch state.path[id: id] {
      case .detail(let detail)?: shown = detail.contact
      case .edit(let edit)?: shown = edit.contact
      case .settings?, nil: continue
      }
      guard previous[id: shown.id] != nil else { continue }
      guard let listed = state.contacts[id: shown.id] else {
        state.path.pop(from: id)
        return
      }
      // Only a detail takes the listed contact.
      if shown != listed { state.path[id: id, case: \.detail]?.contact = listed }
    }
  }

  private func load(_ state: inout State) -> Effect<Action> {
    state.isLoading = true
    return .run { send in
      await send(.loadResponse(.success(try await contactsClient.load())))
    } catch: { error, send in
      await send(.loadResponse(.failure(error as? ContactsError ?? .unreadable("\(error)"))))
    }
  }

  /// Saves a change the book already shows, after the changes before it.
  private func save(
    _ change: ContactChange, previous: IdentifiedArrayOf<Contact>, _ state: inout State
  ) -> Effect<Action> {
    state.unsavedChanges.append(UnsavedChange(change, previous: previous))
    // A save in flight starts the next one when it ends.
    return state.unsavedChanges.count == 1 ? saveOldestChange(state) : .none
  }

  private func saveOldestChange(_ state: State) -> Effect<Action> {
    guard let change = state.unsavedChanges.first?.change else { return .none }
    return .run { send in
      try await contactsClient.apply(change)
      await send(.saved)
    } catch: { error, send in
      await send(.saveFailed(error as? ContactsError ?? .unwritable("\(error)")))
    }
  }
}
