import ArgumentParser
import CacheClientLive
import ComposableCore
import ContactsClient
import Foundation
import NavigationFeature
import OrdersClient
import RefreshableListFeature

// MARK: orders

struct Orders: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Lists orders, a page at a time.")

  @OptionGroup var options: GlobalOptions
  @Option(help: "all, pending, processing, shipped, delivered, cancelled or none.")
  var status: OrderFilter = .all
  @Option(help: "The page to show, from 0.") var page: Int?
  @Flag(help: "Every page.") var all = false
  @Flag(help: "Print JSON: {\"filter\", \"page\", \"hasMorePages\", \"orders\": […]}.") var json =
    false

  /// The pages `--page` may ask for.
  static let pages = 0...100_000

  func validate() throws {
    if all && page != nil { throw ValidationError("Use either --page or --all, not both.") }
    if let page, !Self.pages.contains(page) {
      throw ValidationError(
        "--page must be from \(Self.pages.lowerBound) to \(Self.pages.upperBound), not \(page).")
    }
  }

  func run() async throws {
    let (options, status, page, all, json) = (options, status, page, all, json)
    try await runCommand {
      let store = try commandStore(options, RefreshableList.State()) { RefreshableList() }
      if status == .all {
        await store.send(.onAppear).finish()
      } else {
        await store.send(.selectFilter(status)).finish()
      }
      let target = all ? Int.max : (page ?? 0)
      while case .loaded(let list, let footer) = store.state.pageState, list.currentPage < target,
        list.hasMorePages
      {
        if case .failed = footer { break }
        await store.send(.loadMore).finish()
      }
      switch store.state.pageState {
      case .failed(_, let info):
        throw Failure(info.description)
      case .loaded(_, .failed(let info)):
        throw Failure(info.description)
      case .loaded(let list, _):
        let firstShown = all ? 0 : (page ?? 0)
        guard list.currentPage >= firstShown || all else {
          throw Failure("there is no page \(firstShown); the last page is \(list.currentPage)")
        }
        let shown = list.items.filter { order in
          all || list.items.index(id: order.id)! / store.state.perPage == firstShown
        }
        if json {
          try Output.json(
            OrdersOutput(
              filter: status.name,
              page: all ? nil : firstShown,
              hasMorePages: all ? false : list.hasMorePages || list.currentPage > firstShown,
              orders: Array(shown)
            )
          )
        } else if shown.isEmpty {
          print("No orders.")
        } else {
          for order in shown {
            let total = String(format: "%d.%02d", order.totalCents / 100, order.totalCents % 100)
            Output.line(
              "\(order.number)  \(order.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(total.leftPadded(to: 8))  \(order.customer)"
            )
          }
        }
      default:
        throw Failure("the orders did not load")
      }
    }
  }
}

extension OrderFilter: ExpressibleByArgument {
  /// A filter from its command-line name.
  public init?(argument: String) { self.init(name: argument) }
}

struct OrdersOutput: Codable {
  var filter: String
  var page: Int?
  var hasMorePages: Bool
  var orders: [Order]
}

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(width - count, 0)) + self
  }
}

// MARK: contacts

struct Contacts: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Lists and adds contacts.",
    subcommands: [List.self, Add.self],
    defaultSubcommand: List.self
  )

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lists contacts.")
    @OptionGroup var options: GlobalOptions
    @Flag(help: "Print JSON: an array of contacts.") var json = false

    func run() async throws {
      let (options, json) = (options, json)
      try await runCommand {
        let store = try await loadedContacts(options)
        let contacts = store.state.sortedContacts
        if json {
          try Output.json(contacts.map(ContactOutput.init))
        } else if contacts.isEmpty {
          print("No contacts.")
        } else {
          for contact in contacts {
            Output.line(
              "\(contact.isFavorite ? "★" : " ") \(contact.name)\(contact.email.isEmpty ? "" : "  <\(contact.email)>")\(contact.phone.isEmpty ? "" : "  \(contact.phone)")"
            )
          }
        }
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Adds a contact.")
    @OptionGroup var options: GlobalOptions
    @Option(help: "The name.") var name: String
    @Option(help: "An email address.") var email: String?
    @Option(help: "A phone number.") var phone: String?
    @Flag(help: "Print the new contact as JSON.") var json = false

    func run() async throws {
      let (options, name, email, phone, json) = (options, name, email, phone, json)
      try await runCommand {
        let store = try await loadedContacts(options)
        store.send(.addButtonTapped)
        store.send(.destination(.presented(.add(.view(.set(\.contact.name, name))))))
        if let email {
          store.send(.destination(.presented(.add(.view(.set(\.contact.email, email))))))
        }
        if let phone {
          store.send(.destination(.presented(.add(.view(.set(\.contact.phone, phone))))))
        }
        guard case .add(let form)? = store.state.destination else {
          throw Failure("no contact form")
        }
        let id = form.contact.id
        await store.send(.destination(.presented(.add(.view(.saveButtonTapped))))).finish()
        if let alert = store.state.alert {
          throw Failure(alert.message?.string ?? alert.title.string)
        }
        if case .add(let form)? = store.state.destination {
          throw Failure(
            [form.nameError, form.emailError].compactMap { $0 }.joined(separator: "\n"))
        }
        guard let contact = store.state.contacts[id: id] else {
          throw Failure("the contact was not added")
        }
        if json { try Output.json(ContactOutput(contact)) } else { print("Added \(contact.name)") }
      }
    }
  }
}

@MainActor
func loadedContacts(_ options: GlobalOptions) async throws -> StoreOf<ContactsBook> {
  let store = try commandStore(options, ContactsBook.State()) { ContactsBook() }
  await store.send(.onAppear).finish()
  if let alert = store.state.alert {
    throw Failure(alert.message?.string ?? alert.title.string)
  }
  return store
}

struct ContactOutput: Codable {
  var id: String
  var name: String
  var email: String
  var phone: String
  var notes: String
  var favorite: Bool

  init(_ contact: Contact) {
    id = contact.id.uuidString.lowercased()
    name = contact.name
    email = contact.email
    phone = contact.phone
    notes = contact.notes
    favorite = contact.isFavorite
  }
}

// MARK: cache

struct Cache: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Inspects and cleans the compressed cache.",
    subcommands: [Stats.self, Clear.self, Prune.self],
    defaultSubcommand: Stats.self
  )

  struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Entries and sizes.")
    @OptionGroup var options: GlobalOptions
    @Flag(
      help:
        "Print JSON: {\"entries\", \"bytesOnDisk\", \"bytesUncompressed\", \"hits\", \"misses\"}.")
    var json = false

    func validate() throws { try options.rejectRecording(by: "cache stats") }

    func run() async throws {
      let (options, json) = (options, json)
      try await runCommand {
        let stats: CacheStats
        do {
          stats =
            try options.openExistingCache()?.stats()
            ?? CacheStats(entries: 0, bytesOnDisk: 0, bytesUncompressed: 0, hits: 0, misses: 0)
        } catch {
          throw Failure("\(error)")
        }
        if json {
          try Output.json(stats)
        } else {
          let ratio =
            stats.bytesOnDisk > 0
            ? String(format: "%.1f×", Double(stats.bytesUncompressed) / Double(stats.bytesOnDisk))
            : "—"
          print("Cache: \(options.cacheDirectory.path)")
          print("Entries: \(stats.entries)")
          print(
            "On disk: \(stats.bytesOnDisk) bytes (\(stats.bytesUncompressed) uncompressed, \(ratio))"
          )
        }
      }
    }
  }

  struct Clear: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Removes every entry; other files in the directory are left alone.")
    @OptionGroup var options: GlobalOptions

    func validate() throws { try options.rejectRecording(by: "cache clear") }

    func run() async throws {
      let options = options
      try await runCommand {
        do { try options.openExistingCache()?.removeAll() } catch { throw Failure("\(error)") }
        print("Cache cleared.")
      }
    }
  }

  struct Prune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Removes expired and damaged entries.")
    @OptionGroup var options: GlobalOptions

    func validate() throws { try options.rejectRecording(by: "cache prune") }

    func run() async throws {
      let options = options
      try await runCommand {
        let removed: Int
        do {
          removed = try options.openExistingCache()?.prune() ?? 0
        } catch {
          throw Failure("\(error)")
        }
        print("Removed \(removed) entr\(removed == 1 ? "y" : "ies").")
      }
    }
  }
}
