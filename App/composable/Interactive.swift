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
    let dependencies = try options.liveDependencies(interactive: true)
    let (tab, color) = (tab, options.useColor)
    await MainActor.run {
      let app = TerminalApp(
        store: Store(initialState: AppReducer.State(selectedTab: tab)) {
          AppReducer()
        } withDependencies: {
          dependencies(&$0)
        },
        terminal: terminal,
        color: color
      )
      app.start()
    }
    // The app ends the process itself when the user quits.
    while true { try await Task.sleep(for: .seconds(3600)) }
  }
}

extension AppReducer.Tab: ExpressibleByArgument {}

/// The interactive app: reads keys, sends actions, and redraws whenever the state changes.
@MainActor
final class TerminalApp {
  let store: StoreOf<AppReducer>
  let terminal: Terminal
  let color: Bool
  var view = ViewState()
  private var decoder = KeyDecoder()
  private var spinnerTimer: (any DispatchSourceTimer)?
  private var renderer: ObservedRenderer?

  init(store: StoreOf<AppReducer>, terminal: Terminal, color: Bool) {
    self.store = store
    self.terminal = terminal
    self.color = color
  }

  func start() {
    do {
      try terminal.start { DispatchQueue.main.async { MainActor.assumeIsolated { self.render() } } }
    } catch {
      Output.error("cannot use the terminal: \(error)")
      exit(1)
    }
    renderer = ObservedRenderer { [unowned self] in
      let (width, height) = self.terminal.size
      let screen = Renderer.render(self.store, view: self.view, width: width, height: height)
      self.terminal.write(screen.ansi(color: self.color))
    }
    appear(store.state.selectedTab)
    render()
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now(), repeating: .milliseconds(120))
    timer.setEventHandler {
      MainActor.assumeIsolated {
        self.view.spinnerFrame += 1
        if Renderer.isBusy(self.store.state) { self.render() }
      }
    }
    timer.resume()
    spinnerTimer = timer
    let terminal = self.terminal
    Thread {
      while true {
        let bytes = terminal.read()
        DispatchQueue.main.async {
          MainActor.assumeIsolated { self.receive(bytes) }
        }
        if bytes.isEmpty { return }
      }
    }.start()
  }

  func receive(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return quit() }
    for key in decoder.decode(bytes) + (bytes == [0x1B] ? decoder.flush() : []) {
      if Keymap.handle(key, store: store, view: &view) == .quit { return quit() }
    }
    if view.appearedTab != store.state.selectedTab { appear(store.state.selectedTab) }
    render()
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

  func quit() {
    // Preferences are written as they change; anything still gathering is written now.
    @Dependency(\.sharedReferences) var sharedReferences
    sharedReferences.flush()
    spinnerTimer?.cancel()
    terminal.stop()
    exit(0)
  }
}

/// Draws inside observation tracking and draws again, once, when something the drawing read
/// changes: a screen redraws for its own state and for nothing else.
@MainActor
final class ObservedRenderer {
  /// How many times it has drawn.
  private(set) var renderCount = 0
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
    } onChange: { [weak self] in
      // Called as the change begins; draw once it is done, on the main actor.
      Task { @MainActor in
        guard let self, self.generation == drawn else { return }
        self.render()
      }
    }
  }
}
