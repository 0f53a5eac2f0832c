import ComposableCore
import ComposableTestSupport
import ContactsClient
import Foundation
import NavigationFeature
import Testing

let ada = Contact(id: UUID(10), name: "Ada Lovelace", email: "ada@example.com")
let alan = Contact(id: UUID(11), name: "Alan Turing")

/// A contacts client that records changes, and fails when told to. Each change takes a second
/// of `clock`, so that a test says when a save ends among the other effects.
final class RecordingContacts: Sendable {
  let stored: [Contact]
  let changes = LockIsolated<[ContactChange]>([])
  let failSaves: LockIsolated<Bool>
  /// What loading throws, when set.
  let loadError = LockIsolated<ContactsError?>(nil)
  let clock = TestClock()

  init(_ stored: [Contact] = [], failingSaves: Bool = false) {
    self.stored = stored
    self.failSaves = LockIsolated(failingSaves)
  }

  var client: ContactsClient {
    ContactsClient(
      load: {
        if let error = self.loadError.value { throw error }
        return self.stored
      },
      apply: { change in
        try await self.clock.sleep(for: .seconds(1))
        if self.failSaves.value { throw ContactsError.unwritable("read-only disk") }
        self.changes.withValue { $0.append(change) }
      },
      changes: { .finished }
    )
  }
}

@MainActor
struct ContactsBookTests {
  /// The alert a failed save of one change shows, with `RecordingContacts` failing.
  static let oneChangeNotSaved = AlertState<ContactsBook.Action.Alert> {
    TextState("Your change was not saved")
  } message: {
    TextState("Your change could not be saved: read-only disk")
  }

  func makeStore(
    _ state: ContactsBook.State = ContactsBook.State(contacts: [ada, alan], hasLoaded: true),
    contacts: RecordingContacts = RecordingContacts()
  ) -> TestStoreOf<ContactsBook> {
    TestStore(initialState: state) {
      ContactsBook()
    } withDependencies: {
      $0.contactsClient = contacts.client
      $0.uuid = .incrementing
    }
  }

  /// A store of a loaded book of Ada and Alan, with `contact`'s detail pushed.
  func makeStore(onDetailOf contact: Contact, contacts: RecordingContacts) -> TestStoreOf<
    ContactsBook
  > {
    makeStore(
      ContactsBook.State(
        contacts: [ada, alan], path: [.detail(ContactDetail.State(contact: contact))],
        hasLoaded: true),
      contacts: contacts
    )
  }

  @Test func aContactDeletedElsewhereLeavesTheListAndItsDetail() async {
    let store = makeStore(onDetailOf: ada, contacts: RecordingContacts([alan]))
    await store.send(.storedContactsChanged) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.contacts = [alan]
      $0.path = StackState()
    }
  }

  @Test func aContactChangedElsewhereShowsInItsDetail() async {
    var renamed = ada
    renamed.name = "Augusta Ada King"
    let store = makeStore(onDetailOf: ada, contacts: RecordingContacts([renamed, alan]))
    await store.send(.storedContactsChanged) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.contacts = [renamed, alan]
      $0.path[id: 0, case: \.detail]?.contact = renamed
    }
  }

  /// From Ada's detail at the top of the stack: asks to delete her, confirms, and sees her
  /// removed from the list and her detail popped.
  func confirmDeletingAdaFromHerDetail(
    _ store: TestStoreOf<ContactsBook>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await store.send(
      .path(.element(id: 0, action: .detail(.deleteButtonTapped))),
      assert: {
        $0.path[id: 0, case: \.detail]?.confirmationDialog = .deleteContact(named: "Ada Lovelace")
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await store.send(
      .path(.element(id: 0, action: .detail(.confirmationDialog(.presented(.confirmDeletion))))),
      assert: { $0.path[id: 0, case: \.detail]?.confirmationDialog = nil },
      fileID: fileID, filePath: filePath, line: line, column: column)
    await store.receive(
      \.path[id: 0].detail.delegate.deleteConfirmed,
      assert: {
        $0.contacts = [alan]
        $0.path = []
        $0.unsavedChanges = [.init(.delete(id: ada.id), previous: [ada, alan])]
      }, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// From Alan's detail at the top of the stack (`id`): stars him, and sees the list star him
  /// and the save queued.
  func starAlanFromHisDetail(
    _ store: TestStoreOf<ContactsBook>,
    at id: StackElementID = 0,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Contact {
    var starred = alan
    starred.isFavorite = true
    let previous = store.state.contacts
    await store.send(
      \.path[id: id].detail.favoriteButtonTapped,
      assert: { $0.path[id: id, case: \.detail]?.contact = starred },
      fileID: fileID, filePath: filePath, line: line, column: column)
    await store.receive(
      \.path[id: id].detail.delegate.favoriteToggled, starred,
      assert: {
        $0.contacts[id: alan.id] = starred
        $0.unsavedChanges = [.init(.save(starred), previous: previous)]
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    return starred
  }

  /// Opens the add sheet, which makes the contact `UUID(0)`, and types `name` into it.
  func startAddingContact(
    named name: String,
    _ store: TestStoreOf<ContactsBook>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await store.send(
      .addButtonTapped,
      assert: {
        $0.destination = .add(
          ContactEdit.State(contact: Contact(id: UUID(0), name: ""), isNew: true))
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await store.send(
      .destination(.presented(.add(.view(.set(\.contact.name, name))))),
      assert: {
        $0.destination = .add(
          ContactEdit.State(contact: Contact(id: UUID(0), name: name), isNew: true))
      }, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Saves the add sheet's contact, and sees it listed as `name`, its save queued after the list
  /// was `previous`, and the sheet dismissed. Returns the contact.
  func saveNewContact(
    as name: String,
    after previous: IdentifiedArrayOf<Contact>,
    _ store: TestStoreOf<ContactsBook>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Contact {
    await store.send(
      \.destination.add.view.saveButtonTapped,
      fileID: fileID, filePath: filePath, line: line, column: column)
    let added = Contact(id: UUID(0), name: name)
    await store.receive(
      \.destination.add.delegate.saved, added,
      assert: {
        $0.contacts.append(added)
        $0.unsavedChanges = [.init(.save(added), previous: previous)]
      }, fileID: fileID, filePath: filePath, line: line, column: column)
    await store.receive(
      \.destination.dismiss, assert: { $0.destination = nil },
      fileID: fileID, filePath: filePath, line: line, column: column)
    return added
  }

  /// Lets the save in flight end a second later, failing, and sees the list go back to `stored`,
  /// the queue emptied and the one-change alert, besides what `alsoAssert` says changed.
  func receiveFailedSave(
    _ store: TestStoreOf<ContactsBook>,
    of contacts: RecordingContacts,
    restoring stored: IdentifiedArrayOf<Contact>,
    alsoAssert: @escaping (inout ContactsBook.State) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(
      \.saveFailed,
      assert: {
        $0.contacts = stored
        $0.unsavedChanges = []
        alsoAssert(&$0)
        $0.alert = Self.oneChangeNotSaved
      }, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  @Test func loadsOnFirstAppearance() async {
    let store = makeStore(ContactsBook.State(), contacts: RecordingContacts([alan, ada]))
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.contacts = [alan, ada]
    }
    await store.send(.onAppear)
    #expect(store.state.sortedContacts.map(\.name) == ["Ada Lovelace", "Alan Turing"])
  }

  @Test func aContactAddedWhileLoadingSurvivesTheLoad() async {
    let clock = TestClock()
    let contacts = RecordingContacts([ada])
    let store = TestStore(initialState: ContactsBook.State()) {
      ContactsBook()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.contactsClient = ContactsClient(
        load: {
          try await clock.sleep(for: .seconds(1))
          return contacts.stored
        },
        apply: contacts.client.apply,
        changes: { .finished }
      )
    }
    await store.send(.onAppear) { $0.isLoading = true }
    await startAddingContact(named: "Grace", store)
    let grace = await saveNewContact(as: "Grace", after: [], store)
    await clock.advance(by: .seconds(1))
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.contacts = [ada, grace]
    }
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
  }

  @Test func pushDetailThenEditThenSaveUpdatesEveryScreen() async {
    let contacts = RecordingContacts()
    let store = makeStore(contacts: contacts)
    await store.send(.contactTapped(id: ada.id)) {
      $0.path[id: 0] = .detail(ContactDetail.State(contact: ada))
    }
    await store.send(\.path[id: 0].detail.editButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.editRequested, ada) {
      $0.path[id: 1] = .edit(ContactEdit.State(contact: ada))
    }
    var renamed = ada
    renamed.name = "Ada King"
    await store.send(.path(.element(id: 1, action: .edit(.view(.set(\.contact.name, "Ada King"))))))
    {
      $0.path[id: 1] = .edit(ContactEdit.State(contact: renamed))
    }
    await store.send(\.path[id: 1].edit.view.saveButtonTapped)
    await store.receive(\.path[id: 1].edit.delegate.saved, renamed) {
      $0.contacts[id: ada.id] = renamed
      $0.path[id: 0] = .detail(ContactDetail.State(contact: renamed))
      $0.unsavedChanges = [.init(.save(renamed), previous: [ada, alan])]
    }
    await store.receive(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
    }
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(contacts.changes.value == [.save(renamed)])
  }

  @Test func cancellingAnEditChangesNothing() async {
    let store = makeStore(
      ContactsBook.State(
        contacts: [ada], path: [.edit(ContactEdit.State(contact: ada))], hasLoaded: true))
    await store.send(.path(.element(id: 0, action: .edit(.view(.set(\.contact.phone, "123")))))) {
      $0.path[id: 0, case: \.edit]?.contact.phone = "123"
    }
    await store.send(\.path[id: 0].edit.view.cancelButtonTapped)
    await store.receive(\.path[id: 0].edit.delegate.cancelled)
    await store.receive(\.path.popFrom, 0) { $0.path = [] }
    #expect(store.state.contacts == [ada])
  }

  @Test func validationBlocksSavingAnEmptyNameOrBadEmail() async {
    let store = makeStore(
      ContactsBook.State(
        contacts: [ada], path: [.edit(ContactEdit.State(contact: ada))], hasLoaded: true)
    )
    await store.send(.path(.element(id: 0, action: .edit(.view(.set(\.contact.name, "  ")))))) {
      $0.path[id: 0, case: \.edit]?.contact.name = "  "
    }
    await store.send(
      .path(.element(id: 0, action: .edit(.view(.set(\.contact.email, "ada@home")))))
    ) {
      $0.path[id: 0, case: \.edit]?.contact.email = "ada@home"
    }
    await store.send(\.path[id: 0].edit.view.saveButtonTapped) {
      $0.path[id: 0, case: \.edit]?.nameError = "A contact needs a name."
      $0.path[id: 0, case: \.edit]?.emailError = "Enter a valid email address."
    }
    // Editing a field clears its error.
    await store.send(.path(.element(id: 0, action: .edit(.view(.set(\.contact.name, "Ada")))))) {
      $0.path[id: 0, case: \.edit]?.contact.name = "Ada"
      $0.path[id: 0, case: \.edit]?.nameError = nil
    }
  }

  @Test func popToRootFromAnyDepth() async {
    let store = makeStore(
      ContactsBook.State(
        contacts: [ada],
        path: [.detail(ContactDetail.State(contact: ada)), .edit(ContactEdit.State(contact: ada))],
        hasLoaded: true
      )
    )
    #expect(store.state.path.ids == [0, 1])
    await store.send(.popToRootButtonTapped) { $0.path = [] }
  }

  @Test func settingsArePushedFromTheRootAndReportChanges() async {
    let store = makeStore()
    await store.send(.settingsButtonTapped) {
      $0.path[id: 0] = .settings(ContactSettings.State())
    }
    await store.send(
      .path(.element(id: 0, action: .settings(.set(\.settings.favoritesFirst, false))))
    ) {
      $0.path[id: 0, case: \.settings]?.settings.favoritesFirst = false
    }
    await store.receive(\.path[id: 0].settings.delegate.changed) {
      $0.settings.favoritesFirst = false
    }
    await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
  }

  @Test func favouritingFromTheDetailUpdatesTheList() async {
    let contacts = RecordingContacts()
    let store = makeStore(onDetailOf: alan, contacts: contacts)
    let starred = await starAlanFromHisDetail(store)
    #expect(store.state.sortedContacts.first == starred)
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(contacts.changes.value == [.save(starred)])
  }

  @Test func aContactStarredThenUnstarredIsSavedInThatOrder() async {
    let contacts = RecordingContacts()
    let store = makeStore(onDetailOf: alan, contacts: contacts)
    let starred = await starAlanFromHisDetail(store)
    // Unstarred while the star is still being saved: the second save waits for the first, so
    // the file ends as the screen does.
    await store.send(\.path[id: 0].detail.favoriteButtonTapped) {
      $0.path[id: 0, case: \.detail]?.contact = alan
    }
    await store.receive(\.path[id: 0].detail.delegate.favoriteToggled, alan) {
      $0.contacts[id: alan.id] = alan
      $0.unsavedChanges.append(.init(.save(alan), previous: [ada, starred]))
    }
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges.removeFirst() }
    #expect(contacts.changes.value == [.save(starred)])
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(contacts.changes.value == [.save(starred), .save(alan)])
  }

  @Test func deleteAsksForConfirmationThenDeletesAndPops() async {
    let contacts = RecordingContacts()
    let store = makeStore(onDetailOf: ada, contacts: contacts)
    await confirmDeletingAdaFromHerDetail(store)
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(contacts.changes.value == [.delete(id: ada.id)])
  }

  @Test func cancellingTheDeleteConfirmationKeepsTheContact() async {
    let store = makeStore(
      ContactsBook.State(
        contacts: [ada], path: [.detail(ContactDetail.State(contact: ada))], hasLoaded: true)
    )
    await store.send(\.path[id: 0].detail.deleteButtonTapped) {
      $0.path[id: 0, case: \.detail]?.confirmationDialog = .deleteContact(named: "Ada Lovelace")
    }
    await store.send(\.path[id: 0].detail.confirmationDialog.dismiss) {
      $0.path[id: 0, case: \.detail]?.confirmationDialog = nil
    }
    #expect(store.state.contacts == [ada])
  }

  @Test func theAddSheetDismissesItselfAfterSaving() async {
    let contacts = RecordingContacts()
    let store = makeStore(contacts: contacts)
    await startAddingContact(named: " Grace Hopper ", store)
    let grace = await saveNewContact(as: "Grace Hopper", after: [ada, alan], store)
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(contacts.changes.value == [.save(grace)])
  }

  @Test func swipingTheAddSheetAwaySavesNothing() async {
    let store = makeStore()
    await store.send(.addButtonTapped) {
      $0.destination = .add(ContactEdit.State(contact: Contact(id: UUID(0), name: ""), isNew: true))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    #expect(store.state.contacts == [ada, alan])
  }

  @Test func aDeepLinkStartsWithThePathAndWorks() async {
    let store = makeStore(
      ContactsBook.State(
        contacts: [ada],
        path: [.detail(ContactDetail.State(contact: ada)), .edit(ContactEdit.State(contact: ada))],
        hasLoaded: true
      )
    )
    await store.send(\.path[id: 1].edit.view.cancelButtonTapped)
    await store.receive(\.path[id: 1].edit.delegate.cancelled)
    await store.receive(\.path.popFrom, 1) { $0.path.pop(from: 1) }
    await store.send(.path(.popFrom(id: 0))) { $0.path = [] }
  }

  @Test func aFailedSaveRestoresTheListAndSaysSo() async {
    let contacts = RecordingContacts(failingSaves: true)
    let store = makeStore(onDetailOf: ada, contacts: contacts)
    await confirmDeletingAdaFromHerDetail(store)
    await receiveFailedSave(store, of: contacts, restoring: [ada, alan])
  }

  @Test func aStarThatFailsToSaveIsUndoneOnItsDetailToo() async {
    let contacts = RecordingContacts(failingSaves: true)
    let store = makeStore(onDetailOf: alan, contacts: contacts)
    _ = await starAlanFromHisDetail(store)
    await receiveFailedSave(store, of: contacts, restoring: [ada, alan]) {
      $0.path[id: 0, case: \.detail]?.contact = alan
    }
  }

  @Test func screensOfAContactWhoseAddFailedArePopped() async {
    let contacts = RecordingContacts(failingSaves: true)
    let store = makeStore(
      ContactsBook.State(
        contacts: [ada], path: [.detail(ContactDetail.State(contact: ada))], hasLoaded: true),
      contacts: contacts
    )
    await startAddingContact(named: "Grace Hopper", store)
    let grace = await saveNewContact(as: "Grace Hopper", after: [ada], store)
    // Her detail and her editor are opened while her add is still being saved.
    await store.send(.contactTapped(id: grace.id)) {
      $0.path[id: 1] = .detail(ContactDetail.State(contact: grace))
    }
    await store.send(\.path[id: 1].detail.editButtonTapped)
    await store.receive(\.path[id: 1].detail.delegate.editRequested, grace) {
      $0.path[id: 2] = .edit(ContactEdit.State(contact: grace))
    }
    // Ada's detail below them stays.
    await receiveFailedSave(store, of: contacts, restoring: [ada]) { $0.path.pop(from: 1) }
  }

  @Test func aLoadFailureShowsAnAlertWithRetry() async {
    let contacts = RecordingContacts([ada])
    contacts.loadError.setValue(.unreadable("permission denied"))
    let store = makeStore(ContactsBook.State(), contacts: contacts)
    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(\.loadResponse.failure) {
      $0.isLoading = false
      $0.hasLoaded = true
      $0.alert = .failure(
        title: "Could not load your contacts",
        message: TextState("Your contacts could not be read: permission denied"),
        retry: .retryLoadButtonTapped
      )
    }
    contacts.loadError.setValue(nil)
    await store.send(\.alert.retryLoadButtonTapped) {
      $0.alert = nil
      $0.isLoading = true
    }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.contacts = [ada]
    }
  }

  @Test func aSaveThatFailsWhileANewContactIsTypedKeepsTheDraft() async {
    let contacts = RecordingContacts(failingSaves: true)
    let store = makeStore(onDetailOf: alan, contacts: contacts)
    _ = await starAlanFromHisDetail(store)
    await startAddingContact(named: "Grace", store)
    // The alert comes over the sheet, which keeps what was typed.
    await receiveFailedSave(store, of: contacts, restoring: [ada, alan]) {
      $0.path[id: 0, case: \.detail]?.contact = alan
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    contacts.failSaves.setValue(false)
    let grace = await saveNewContact(as: "Grace", after: [ada, alan], store)
    await contacts.clock.advance(by: .seconds(1))
    await store.receive(\.saved) { $0.unsavedChanges = [] }
    #expect(contacts.changes.value == [.save(grace)])
  }

  @Test func aFailedSaveLeavesAScreenOfAnUnlistedContact() async {
    let contacts = RecordingContacts(failingSaves: true)
    // Ada's detail, deep-linked before the list held her, under Alan's.
    let store = makeStore(
      ContactsBook.State(
        contacts: [alan],
        path: [
          .detail(ContactDetail.State(contact: ada)), .detail(ContactDetail.State(contact: alan)),
        ],
        hasLoaded: true),
      contacts: contacts
    )
    _ = await starAlanFromHisDetail(store, at: 1)
    await receiveFailedSave(store, of: contacts, restoring: [alan]) {
      $0.path[id: 1, case: \.detail]?.contact = alan
    }
  }
}
