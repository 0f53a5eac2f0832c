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
    if let form = book.scope(state: \.destination?.add, action: \.destination.add) {
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
    guard let top = topScreen(of: book) else {
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
    }
    switch top.case {
    case .detail(let detail):
      let contact = detail.contact
      lines.append(("\(contact.isFavorite ? "★ " : "")\(contact.name)", nil))
      if !contact.email.isEmpty { lines.append(("Email: \(contact.email)", nil)) }
      if !contact.phone.isEmpty { lines.append(("Phone: \(contact.phone)", nil)) }
      if !contact.notes.isEmpty { lines.append(("Notes: \(contact.notes)", nil)) }
      return (lines, "e edit  f favourite  d delete  Esc back  H root  q quit")
    case .edit(let form):
      lines += editForm(form, view: view)
      return (lines, "↑/↓ field  Enter edit/save  Esc cancel  H root")
    case .settings(let settings):
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

  /// The store of the screen on top of the stack, if one is pushed.
  static func topScreen(of book: StoreOf<ContactsBook>) -> StoreOf<ContactsBook.Path>? {
    guard let top = book.path.ids.last else { return nil }
    return book.scope(state: \.path[id: top], action: \.path[id: top])
  }

  static func editForm(_ form: StoreOf<ContactEdit>, view: AppViewState) -> [Line] {
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
    if let form = book.scope(state: \.destination?.add, action: \.destination.add) {
      handleEditForm(key, form: form, view: &view)
      return
    }
    guard let id = book.path.ids.last, let top = topScreen(of: book) else {
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
    switch top.case {
    case .detail(let detail):
      switch key {
      case .character("e"):
        view.contacts.editFocus = 0
        detail.send(.editButtonTapped)
      case .character("f"): detail.send(.favoriteButtonTapped)
      case .character("d"): detail.send(.deleteButtonTapped)
      case .escape, .left: book.send(.path(.popFrom(id: id)))
      default: break
      }
    case .edit(let form):
      handleEditForm(key, form: form, view: &view)
    case .settings(let settings):
      switch key {
      case .up, .down: view.contacts.settingsFocus = (view.contacts.settingsFocus + 1) % 2
      case .character(" "), .enter:
        let path: WritableKeyPath<ContactSettings.State, Bool> =
          view.contacts.settingsFocus % 2 == 0 ? \.settings.favoritesFirst : \.settings.showEmails
        settings.send(.set(path, !settings.state[keyPath: path]))
      case .escape, .left: book.send(.path(.popFrom(id: id)))
      default: break
      }
    }
  }

  private static func handleEditForm(
    _ key: KeyEvent, form: StoreOf<ContactEdit>, view: inout AppViewState
  ) {
    let count = editFields.count
    let focus = view.contacts.editFocus % count
    switch key {
    case .up, .backTab: view.contacts.editFocus = (focus + count - 1) % count
    case .down, .tab: view.contacts.editFocus = (focus + 1) % count
    case .enter where focus < count - 1: view.editing = .contact(focus)
    case .enter: form.send(.view(.saveButtonTapped))
    case .escape: form.send(.view(.cancelButtonTapped))
    default: break
    }
  }

  /// Typing into a field of the form showing: the add sheet's, or the edit screen's on top.
  static func type(
    _ key: KeyEvent, into index: Int, book: StoreOf<ContactsBook>, view: inout AppViewState
  ) {
    let form: StoreOf<ContactEdit>
    if let added = book.scope(state: \.destination?.add, action: \.destination.add) {
      form = added
    } else if let top = topScreen(of: book), case .edit(let edited) = top.case {
      form = edited
    } else {
      view.editing = nil
      return
    }
    if let text = key.edit(form.state[keyPath: textFields[index]]) {
      form.send(.view(.set(textFields[index], text)))
    }
    if key == .enter || key == .escape { view.editing = nil }
  }
}
