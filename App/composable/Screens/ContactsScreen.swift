import ComposableCore
import ContactsClient
import NavigationFeature
import TerminalUI

/// The contacts tab: the list, a stack of detail, edit and settings screens, and the add sheet.
@MainActor
final class ContactsScreen: TabScreen {
  let store: StoreOf<ContactsBook>
  /// The cursor in the list.
  private var cursor = 0
  /// The focused row of the form showing (the add sheet's or the editor's).
  private var editFocus = 0
  /// The focused row of the settings.
  private var settingsFocus = 0
  /// The form field being typed into.
  private var editing: Int?

  init(store: StoreOf<ContactsBook>) {
    self.store = store
  }

  static let editFields = ["Name", "Email", "Phone", "Notes", "Save"]
  /// The edit form's text fields, in the order of ``editFields``.
  static let textFields: [WritableKeyPath<ContactEdit.State, String>] = [
    \.contact.name, \.contact.email, \.contact.phone, \.contact.notes,
  ]

  var isTyping: Bool { editing != nil && form != nil }
  var isBusy: Bool { store.isLoading }

  func appear() {
    store.send(.onAppear)
  }

  /// The store of the screen on top of the stack, if one is pushed.
  private var top: StoreOf<ContactsBook.Path>? {
    guard let id = store.path.ids.last else { return nil }
    return store.scope(state: \.path[id: id], action: \.path[id: id])
  }

  /// The form showing: the add sheet's, or the editor's on top of the stack.
  private var form: StoreOf<ContactEdit>? {
    if let added = store.scope(state: \.destination?.add, action: \.destination.add) {
      return added
    }
    if let top, case .edit(let edited) = top.case { return edited }
    return nil
  }

  func body(_ frame: Frame) -> ScreenBody {
    var lines: [Line] = []
    if let form = store.scope(state: \.destination?.add, action: \.destination.add) {
      lines.append(Line("New contact", .bold))
      lines += editForm(form)
      return ScreenBody(lines: lines, hints: "↑/↓ field  Enter edit/save  Esc cancel")
    }
    let crumbs =
      ["Contacts"]
      + store.path.map { element -> String in
        switch element {
        case .detail(let detail): detail.contact.name
        case .edit: "Edit"
        case .settings: "Settings"
        }
      }
    lines.append(Line(crumbs.joined(separator: " › "), .bold))
    guard let top else {
      if store.isLoading { lines.append(Line("\(frame.spin) Loading…", .dim)) }
      let contacts = store.sortedContacts
      if contacts.isEmpty && !store.isLoading {
        lines.append(Line("No contacts. Press a to add one.", .dim))
      }
      let showEmails = store.settings.showEmails
      let cursor = clamped(cursor, count: contacts.count)
      for (index, contact) in contacts.enumerated() {
        let email = showEmails && !contact.email.isEmpty ? "  <\(contact.email)>" : ""
        lines.append(
          .item(
            "\(contact.isFavorite ? "★" : " ") \(contact.name)\(email)", selected: index == cursor))
      }
      return ScreenBody(lines: lines, hints: "↑/↓ move  Enter open  a add  s settings")
    }
    switch top.case {
    case .detail(let detail):
      let contact = detail.contact
      lines.append(Line("\(contact.isFavorite ? "★ " : "")\(contact.name)"))
      if !contact.email.isEmpty { lines.append(Line("Email: \(contact.email)")) }
      if !contact.phone.isEmpty { lines.append(Line("Phone: \(contact.phone)")) }
      if !contact.notes.isEmpty { lines.append(Line("Notes: \(contact.notes)")) }
      return ScreenBody(lines: lines, hints: "e edit  f favourite  d delete  Esc back  H root")
    case .edit(let form):
      lines += editForm(form)
      return ScreenBody(lines: lines, hints: "↑/↓ field  Enter edit/save  Esc cancel  H root")
    case .settings(let settings):
      let rows = [
        "[\(settings.settings.favoritesFirst ? "x" : " ")] Favourites first",
        "[\(settings.settings.showEmails ? "x" : " ")] Show emails",
      ]
      for (index, row) in rows.enumerated() {
        lines.append(.item(row, selected: index == settingsFocus))
      }
      return ScreenBody(lines: lines, hints: "↑/↓ move  space toggle  Esc back")
    }
  }

  private func editForm(_ form: StoreOf<ContactEdit>) -> [Line] {
    let values = [form.contact.name, form.contact.email, form.contact.phone, form.contact.notes]
    let errors = [form.nameError, form.emailError, nil, nil]
    var rows: [Line] = []
    for (index, name) in Self.editFields.enumerated() {
      let focused = index == editFocus
      let cursor = focused && editing == index ? "▏" : ""
      let line = index < values.count ? "\(name): \(values[index])\(cursor)" : "< Save >"
      rows.append(.item(line, selected: focused))
      if index < errors.count, let error = errors[index] {
        rows.append(Line("    \(error)", .error))
      }
    }
    return rows
  }

  let keys = [
    KeyHelp("↑/↓", "move"), KeyHelp("Enter", "open a contact, edit a field, or save"),
    KeyHelp("a", "add a contact"), KeyHelp("s", "settings"), KeyHelp("e", "edit the contact"),
    KeyHelp("f", "favourite or not"), KeyHelp("d", "delete the contact"),
    KeyHelp("Esc", "back, or cancel the form"), KeyHelp("H", "back to the list"),
  ]

  func handle(_ key: KeyEvent) -> Bool {
    if let index = editing {
      guard let form else {
        editing = nil
        return handle(key)
      }
      if let text = key.edit(form.state[keyPath: Self.textFields[index]]) {
        form.send(.view(.set(Self.textFields[index], text)))
      }
      if key == .enter || key == .escape { editing = nil }
      return true
    }
    if let form = store.scope(state: \.destination?.add, action: \.destination.add) {
      return handleForm(key, form: form)
    }
    guard let id = store.path.ids.last, let top else {
      let contacts = store.sortedContacts
      cursor = clamped(cursor, count: contacts.count)
      switch key {
      case .up: cursor = max(cursor - 1, 0)
      case .down: cursor = clamped(cursor + 1, count: contacts.count)
      case .enter:
        if contacts.indices.contains(cursor) {
          store.send(.contactTapped(id: contacts[cursor].id))
        }
      case .character("a"):
        editFocus = 0
        store.send(.addButtonTapped)
      case .character("s"):
        settingsFocus = 0
        store.send(.settingsButtonTapped)
      default: return false
      }
      return true
    }
    if key == .character("H") {
      store.send(.popToRootButtonTapped)
      return true
    }
    switch top.case {
    case .detail(let detail):
      switch key {
      case .character("e"):
        editFocus = 0
        detail.send(.editButtonTapped)
      case .character("f"): detail.send(.favoriteButtonTapped)
      case .character("d"): detail.send(.deleteButtonTapped)
      case .escape, .left: store.send(.path(.popFrom(id: id)))
      default: return false
      }
      return true
    case .edit(let form):
      return handleForm(key, form: form)
    case .settings(let settings):
      switch key {
      case .up, .down: settingsFocus = (settingsFocus + 1) % 2
      case .character(" "), .enter:
        let path: WritableKeyPath<ContactSettings.State, Bool> =
          settingsFocus == 0 ? \.settings.favoritesFirst : \.settings.showEmails
        settings.send(.set(path, !settings.state[keyPath: path]))
      case .escape, .left: store.send(.path(.popFrom(id: id)))
      default: return false
      }
      return true
    }
  }

  private func handleForm(_ key: KeyEvent, form: StoreOf<ContactEdit>) -> Bool {
    let count = Self.editFields.count
    switch key {
    case .up, .backTab: editFocus = (editFocus + count - 1) % count
    case .down, .tab: editFocus = (editFocus + 1) % count
    case .enter where editFocus < count - 1: editing = editFocus
    case .enter: form.send(.view(.saveButtonTapped))
    case .escape: form.send(.view(.cancelButtonTapped))
    default: return false
    }
    return true
  }
}
