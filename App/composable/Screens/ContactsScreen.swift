import ComposableCore
import ContactsClient
import NavigationFeature
import TerminalUI

/// The contacts tab: the list, a stack of detail, edit and settings screens, and the add sheet.
@MainActor
enum ContactsScreen {
  /// The cursor in the list, and the focused row of the edit form and of the settings.
  struct ViewState {
    var cursor = 0
    var editFocus = 0
    var settingsFocus = 0
  }

  static let editFields = ["Name", "Email", "Phone", "Notes", "Save"]
  /// The edit form's text fields, in the order of ``editFields``.
  static let textFields: [WritableKeyPath<ContactEdit.State, String>] = [
    \.contact.name, \.contact.email, \.contact.phone, \.contact.notes,
  ]

  static func render(_ book: StoreOf<ContactsBook>, view: AppViewState, spin: String)
    -> ScreenBody
  {
    var lines: [Line] = []
    if case .add(let form)? = book.destination {
      lines.append(("New contact", .bold))
      lines += editForm(form, view: view)
      return (lines, "↑/↓ field  Enter edit/save  Esc cancel")
    }
    let crumbs =
      ["Contacts"]
      + book.path.map { element -> String in
        switch element {
        case .detail(let detail): detail.contact.name
        case .edit: "Edit"
        case .settings: "Settings"
        }
      }
    lines.append((crumbs.joined(separator: " › "), .bold))
    switch book.path.last {
    case nil:
      if book.isLoading { lines.append(("\(spin) Loading…", .dim)) }
      let contacts = book.sortedContacts
      if contacts.isEmpty && !book.isLoading {
        lines.append(("No contacts. Press a to add one.", .dim))
      }
      let showEmails = book.settings.showEmails
      for (index, contact) in contacts.enumerated() {
        let email = showEmails && !contact.email.isEmpty ? "  <\(contact.email)>" : ""
        lines.append(
          (
            "\(contact.isFavorite ? "★" : " ") \(contact.name)\(email)",
            index == view.contacts.cursor ? .inverse : nil
          ))
      }
      return (lines, "↑/↓ move  Enter open  a add  s settings  1-5 tabs  q quit")
    case .detail(let detail)?:
      let contact = detail.contact
      lines.append(("\(contact.isFavorite ? "★ " : "")\(contact.name)", nil))
      if !contact.email.isEmpty { lines.append(("Email: \(contact.email)", nil)) }
      if !contact.phone.isEmpty { lines.append(("Phone: \(contact.phone)", nil)) }
      if !contact.notes.isEmpty { lines.append(("Notes: \(contact.notes)", nil)) }
      return (lines, "e edit  f favourite  d delete  Esc back  H root  q quit")
    case .edit(let form)?:
      lines += editForm(form, view: view)
      return (lines, "↑/↓ field  Enter edit/save  Esc cancel  H root")
    case .settings(let settings)?:
      let rows = [
        "[\(settings.settings.favoritesFirst ? "x" : " ")] Favourites first",
        "[\(settings.settings.showEmails ? "x" : " ")] Show emails",
      ]
      for (index, row) in rows.enumerated() {
        lines.append((row, index == view.contacts.settingsFocus % rows.count ? .inverse : nil))
      }
      return (lines, "↑/↓ move  space toggle  Esc back")
    }
  }

  static func editForm(_ form: ContactEdit.State, view: AppViewState) -> [Line] {
    let values = [form.contact.name, form.contact.email, form.contact.phone, form.contact.notes]
    let errors = [form.nameError, form.emailError, nil, nil]
    var rows: [Line] = []
    for (index, name) in editFields.enumerated() {
      let focused = index == view.contacts.editFocus % editFields.count
      let cursor = focused && view.editing == .contact(index) ? "▏" : ""
      let line = index < values.count ? "\(name): \(values[index])\(cursor)" : "< Save >"
      rows.append(((focused ? "› " : "  ") + line, focused ? .inverse : nil))
      if index < errors.count, let error = errors[index] { rows.append(("    \(error)", .error)) }
    }
    return rows
  }

  static func handle(_ key: KeyEvent, book: StoreOf<ContactsBook>, view: inout AppViewState) {
    if case .add? = book.destination {
      handleEditForm(key, view: &view) { book.send(.destination(.presented(.add($0)))) }
      return
    }
    guard let top = book.path.ids.last else {
      let contacts = book.sortedContacts
      switch key {
      case .up: view.contacts.cursor = max(view.contacts.cursor - 1, 0)
      case .down:
        view.contacts.cursor = min(view.contacts.cursor + 1, max(contacts.count - 1, 0))
      case .enter:
        if contacts.indices.contains(view.contacts.cursor) {
          book.send(.contactTapped(id: contacts[view.contacts.cursor].id))
        }
      case .character("a"):
        view.contacts.editFocus = 0
        book.send(.addButtonTapped)
      case .character("s"): book.send(.settingsButtonTapped)
      default: break
      }
      return
    }
    if key == .character("H") {
      book.send(.popToRootButtonTapped)
      return
    }
    switch book.path[id: top] {
    case .detail?:
      let sendDetail = { (action: ContactDetail.Action) -> Void in
        book.send(.path(.element(id: top, action: .detail(action))))
      }
      switch key {
      case .character("e"):
        view.contacts.editFocus = 0
        sendDetail(.editButtonTapped)
      case .character("f"): sendDetail(.favoriteButtonTapped)
      case .character("d"): sendDetail(.deleteButtonTapped)
      case .escape, .left: book.send(.path(.popFrom(id: top)))
      default: break
      }
    case .edit?:
      handleEditForm(key, view: &view) { book.send(.path(.element(id: top, action: .edit($0)))) }
    case .settings(let settings)?:
      switch key {
      case .up, .down: view.contacts.settingsFocus = (view.contacts.settingsFocus + 1) % 2
      case .character(" "), .enter:
        let path: WritableKeyPath<ContactSettings.State, Bool> =
          view.contacts.settingsFocus % 2 == 0 ? \.settings.favoritesFirst : \.settings.showEmails
        book.send(
          .path(.element(id: top, action: .settings(.set(path, !settings[keyPath: path])))))
      case .escape, .left: book.send(.path(.popFrom(id: top)))
      default: break
      }
    case nil:
      break
    }
  }

  private static func handleEditForm(
    _ key: KeyEvent, view: inout AppViewState, send: (ContactEdit.Action) -> Void
  ) {
    let count = editFields.count
    let focus = view.contacts.editFocus % count
    switch key {
    case .up, .backTab: view.contacts.editFocus = (focus + count - 1) % count
    case .down, .tab: view.contacts.editFocus = (focus + 1) % count
    case .enter where focus < count - 1: view.editing = .contact(focus)
    case .enter: send(.view(.saveButtonTapped))
    case .escape: send(.view(.cancelButtonTapped))
    default: break
    }
  }

  /// Typing into a field of the form showing: the add sheet's, or the edit screen's on top.
  static func type(
    _ key: KeyEvent, into index: Int, book: StoreOf<ContactsBook>, view: inout AppViewState
  ) {
    let form: ContactEdit.State
    let send: (ContactEdit.Action) -> Void
    if case .add(let added)? = book.destination {
      form = added
      send = { book.send(.destination(.presented(.add($0)))) }
    } else if let top = book.path.ids.last, case .edit(let edited)? = book.path[id: top] {
      form = edited
      send = { book.send(.path(.element(id: top, action: .edit($0)))) }
    } else {
      view.editing = nil
      return
    }
    if let text = key.edit(form[keyPath: textFields[index]]) {
      send(.view(.set(textFields[index], text)))
    }
    if key == .enter || key == .escape { view.editing = nil }
  }
}
