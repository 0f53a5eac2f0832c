import AppFeature
import ComposableCore
import ContactsClient
import CounterFeature
import FileStore
import FormFeature
import Foundation
import IssueReporting
import NavigationFeature
import RefreshableListFeature
import TerminalUI
import TodoListFeature
import TodosClient

/// What the app reads from outside — recordings, `drive`'s action lines, the data and settings
/// files, terminal input — as functions of bytes, for libFuzzer (`Fuzz/`) and for the test that
/// replays the committed corpus. Cache entries are the live cache's: `Fuzz/` adds that target,
/// and `CacheClientLiveTests` replays its corpus, as no library here uses a live client. Each must return, whatever the bytes: an error is
/// fine, a crash, a hang or unbounded memory is a bug.
public enum FuzzTargets {
  /// Every target, by the name its corpus folder has.
  public static let all: [String: @Sendable (Data) -> Void] = [
    "recording": recording,
    "action": action,
    "todos-file": todosFile,
    "contacts-file": contactsFile,
    "settings-file": settingsFile,
    "keys": keys,
    "terminal-text": terminalText,
  ]

  /// A recording, read and replayed into the counter and the whole app, as `replay` does.
  public static func recording(_ data: Data) {
    withScratchDirectory { directory in
      let url = directory.appendingPathComponent("recording.jsonl")
      guard (try? data.write(to: url)) != nil else { return }
      withPrivatePreferences(nil) {
        _ = try? SessionReplay.header(of: url)
        _ = try? SessionReplay.replay(
          url, feature: "counter", initialState: Counter.State(), reducer: Counter())
        _ = try? SessionReplay.replay(
          url, feature: "app", initialState: AppReducer.State(), reducer: AppReducer())
      }
    }
  }

  /// One line of `drive`'s input, decoded as each feature's action and, when it is one, sent to
  /// the feature's reducer from its first state (effects not run), as `drive --no-effects` does;
  /// otherwise the reason given.
  public static func action(_ data: Data) {
    func drive<R: Reducer>(_ reducer: R, from state: () -> R.State) where R.Action: Decodable {
      do {
        let action = try JSONDecoder().decode(R.Action.self, from: data)
        var state = state()
        _ = reducer.reduce(into: &state, action: action)
      } catch {
        _ = SessionReplay.describeActionFailure(error, in: data)
      }
    }
    withPrivatePreferences(nil) {
      // Issues the reducers report (an action for an absent child) are expected here.
      withIssueReporters([]) {
        drive(Counter()) { Counter.State() }
        drive(TodoList()) { TodoList.State() }
        drive(RefreshableList()) { RefreshableList.State() }
        drive(SignUpForm()) { SignUpForm.State() }
        drive(ContactsBook()) { ContactsBook.State() }
        drive(AppReducer()) { AppReducer.State() }
      }
    }
  }

  /// A todos file, loaded as the todos client loads it.
  public static func todosFile(_ data: Data) {
    load([TodoItem].self, from: data, named: "todos.json")
  }

  /// A contacts file, loaded as the contacts client loads it.
  public static func contactsFile(_ data: Data) {
    load([Contact].self, from: data, named: "contacts.json")
  }

  /// A preferences file, read by the features' `.appStorage` values.
  public static func settingsFile(_ data: Data) {
    withPrivatePreferences(data) {
      _ = Counter.State().timerInterval
      _ = TodoList.State().filter
      _ = SignUpForm.State().accountEmail
    }
  }

  /// Terminal input, decoded into keys in two reads split in the middle, as reads split it.
  public static func keys(_ data: Data) {
    var decoder = KeyDecoder()
    let bytes = [UInt8](data)
    _ = decoder.decode(Array(bytes[..<(bytes.count / 2)]))
    _ = decoder.decode(Array(bytes[(bytes.count / 2)...]))
    _ = decoder.flush()
  }

  /// Any text on its way to the screen, cut and wrapped at a width the first byte picks. What
  /// is shown must hold no control character, be unchanged by sanitising again, and fit its
  /// columns: a violation stops the fuzzer, as a crash would.
  public static func terminalText(_ data: Data) {
    guard let first = data.first else { return }
    let width = Int(first % 64) + 1
    let text = String(decoding: data.dropFirst(), as: UTF8.self)
    let safe = TerminalText.sanitized(text)
    precondition(TerminalText.sanitized(safe) == safe, "sanitising twice changed the text")
    precondition(
      !safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
      "a control character survived")
    precondition(TerminalText.columns(TerminalText.truncated(text, to: width)) <= width)
    precondition(
      TerminalText.wrapped(text, to: width).allSatisfy { TerminalText.columns($0) <= width })
    var screen = Screen(width: width, height: 2)
    screen.put(text, row: 0, style: .inverse)
    precondition(TerminalText.columns(screen.lines[0]) <= width)
  }

  private static func load<Element: Codable & Sendable>(
    _: [Element].Type, from data: Data, named name: String
  ) {
    withScratchDirectory { directory in
      let url = directory.appendingPathComponent(name)
      guard (try? data.write(to: url)) != nil else { return }
      _ = try? FileStore<[Element]>(url: url, emptyValue: []).load()
    }
  }

  /// Runs `body` with preferences in memory, starting as `settings`: nothing here reads or writes
  /// the user's own files.
  private static func withPrivatePreferences(_ settings: Data?, _ body: () -> Void) {
    let storage = InMemoryFileStorage()
    let url = URL(fileURLWithPath: "/fuzz/settings.json")
    if let settings { storage.write(settings, to: url) }
    withDependencies {
      $0.defaultFileStorage = storage
      $0.appStorageURL = url
      $0.sharedReferences = SharedReferences()
    } operation: {
      body()
    }
  }

  /// Runs `body` with an empty directory of its own for the files a target reads, and removes
  /// it afterwards: the corpus test runs targets side by side, and runs must leave nothing behind.
  public static func withScratchDirectory(_ body: (URL) -> Void) {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("composable-fuzz-\(UUID().uuidString)")
    guard
      (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true))
        != nil
    else { return }
    defer { try? FileManager.default.removeItem(at: url) }
    body(url)
  }
}
