import AppFeature
import ArgumentParser
import ComposableCore
import Dispatch
import Foundation
import TerminalUI

struct Interactive: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tui",
    abstract: "Opens the interactive full-screen app (the default)."
  )

  @OptionGroup var options: GlobalOptions
  @Option(help: "The tab to open: counter, todos, orders, signup or contacts.")
  var tab: AppReducer.Tab = .counter

  func run() async throws {
    let terminal = Terminal()
    guard terminal.isInteractive else {
      Output.error(
        "the interactive mode needs a terminal. Run a subcommand instead, e.g. "
          + "'composable todos list' (see 'composable --help')."
      )
      throw ExitCode(64)
    }
    let command = self
    try await runCommand {
      let dependencies = try command.options.liveDependencies(interactive: true)
      let state = withDependencies(dependencies) { AppReducer.State(selectedTab: command.tab) }
      let recorder = try command.options.recorderIfAsked(initialState: state)
      let app = TerminalApp(
        store: Store(initialState: state) {
          if let recorder { AppReducer().recording(to: recorder) } else { AppReducer() }
        } withDependencies: {
          dependencies(&$0)
        },
        terminal: terminal,
        color: command.options.useColor
      )
      // Returns when the user quits, with the terminal given back.
      try await app.run()
      var problems = app.savesFailedWhileQuitting
      let unsaved = app.store.state.unsavedChangeCount
      if unsaved > 0 {
        problems.append(
          "\(unsaved) change\(unsaved == 1 ? " was" : "s were") still being saved "
            + "\(TerminalApp.saveGrace) after quitting, and may not have been saved.")
      }
      if !problems.isEmpty { throw Failure(problems.joined(separator: "\n")) }
    }
  }
}

extension AppReducer.Tab: ExpressibleByArgument {}

/// The interactive app: reads keys, sends actions, and redraws whenever the state changes.
@MainActor
final class TerminalApp {
  let store: StoreOf<AppReducer>
  let terminal: Terminal
  let color: Bool
  var view = AppViewState()
  /// What the todos and contacts tabs said of saves that failed while quitting waited for them,
  /// after their screens were gone.
  private(set) var savesFailedWhileQuitting: [String] = []
  private var decoder = KeyDecoder()
  private var renderer: ObservedRenderer?

  init(store: StoreOf<AppReducer>, terminal: Terminal, color: Bool) {
    self.store = store
    self.terminal = terminal
    self.color = color
  }

  /// Draws the app and handles keys until the user quits; the terminal is restored on the way
  /// out, however the loop ends.
  func run() async throws {
    do {
      try terminal.start { DispatchQueue.main.async { MainActor.assumeIsolated { self.render() } } }
    } catch {
      throw Failure("cannot use the terminal: \(error)")
    }
    defer { terminal.stop() }
    renderer = ObservedRenderer { [unowned self] in
      let (width, height) = self.terminal.size
      let screen = Renderer.render(self.store, view: self.view, width: width, height: height)
      self.terminal.write(screen.ansi(color: self.color))
    }
    appear(store.state.selectedTab)
    render()
    // The spinner turns while the visible tab is busy.
    let spinner = Task { @MainActor [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(120))
        guard let self else { return }
        self.view.spinnerFrame += 1
        if Renderer.isBusy(self.store.state) { self.render() }
      }
    }
    defer { spinner.cancel() }
    for await bytes in terminal.inputBytes() {
      if receive(bytes) == .quit { break }
    }
    await waitForSaves()
    // Preferences are written as they change; anything still gathering is written now.
    @Dependency(\.sharedReferences) var sharedReferences
    sharedReferences.flush()
  }

  /// How long quitting waits for the changes still being saved.
  static let saveGrace = Duration.seconds(5)

  /// Waits, up to `saveGrace`, for the changes made just before quitting to be saved: their
  /// saves run as effects, which end with the process.
  private func waitForSaves() async {
    let (todosAlert, contactsAlert) = (store.state.todos.alert, store.state.contacts.alert)
    let deadline = ContinuousClock.now + Self.saveGrace
    while store.state.unsavedChangeCount > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    // A failed save undoes the change and says so in an alert, which nobody sees any more.
    if let alert = store.state.todos.alert, alert != todosAlert {
      savesFailedWhileQuitting.append(Self.sentence(alert))
    }
    if let alert = store.state.contacts.alert, alert != contactsAlert {
      savesFailedWhileQuitting.append(Self.sentence(alert))
    }
  }

  private static func sentence<Action>(_ alert: AlertState<Action>) -> String {
    [alert.title.string, alert.message?.string].compactMap { $0 }.joined(separator: ": ")
  }

  /// Handles the keys in `bytes`; `.quit` when one of them quits.
  func receive(_ bytes: [UInt8]) -> Keymap.Outcome {
    for key in decoder.decode(bytes) + (bytes == [0x1B] ? decoder.flush() : []) {
      if Keymap.handle(key, store: store, view: &view) == .quit { return .quit }
    }
    if view.appearedTab != store.state.selectedTab { appear(store.state.selectedTab) }
    render()
    return .handled
  }

  func appear(_ tab: AppReducer.Tab) {
    view.appearedTab = tab
    switch tab {
    case .todos: store.send(.todos(.onAppear))
    case .orders: store.send(.orders(.onAppear))
    case .contacts: store.send(.contacts(.onAppear))
    case .counter, .signUp: break
    }
  }

  /// Redraws now: for what the store does not know (a key moved the cursor, the terminal was
  /// resized, the spinner turned). State changes redraw by themselves.
  func render() {
    renderer?.render()
  }

}

/// Draws inside observation tracking and draws again, once, when something the drawing read
/// changes: a screen redraws for its own state and for nothing else.
@MainActor
final class ObservedRenderer {
  /// How many times it has drawn.
  private(set) var renderCount = 0
  /// How many changes to what it drew it has been told of; each asks for one drawing.
  var changesSeen: Int { seen.value }
  // Counted as the change is reported, on whatever thread made it: a store changes on the main
  // actor, but a shared preference written by another process is picked up in the background.
  private let seen = LockIsolated(0)
  private let draw: @MainActor () -> Void
  /// Which drawing is current: a change seen by an older one's tracking is already drawn.
  private var generation = 0

  init(draw: @escaping @MainActor () -> Void) {
    self.draw = draw
  }

  func render() {
    renderCount += 1
    generation += 1
    let drawn = generation
    withObservationTracking {
      draw()
    } onChange: { [seen, weak self] in
      // Called as the change begins, wherever it happens; draw once it is done, on the main
      // actor.
      seen.withValue { $0 += 1 }
      Task { @MainActor in
        guard let self, self.generation == drawn else { return }
        self.render()
      }
    }
  }
}
