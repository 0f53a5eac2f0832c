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
    if let problem = terminal.fullScreenProblem() {
      Output.error(
        "the interactive mode needs a terminal that can draw a full screen: \(problem). Run a "
          + "subcommand instead, e.g. 'composable todos list' (see 'composable --help')."
      )
      throw ExitCode(64)
    }
    let command = self
    try await runCommand {
      let dependencies = try command.options.liveDependencies(interactive: true)
      let state = withDependencies(dependencies) { AppReducer.State(selectedTab: command.tab) }
      let recorder = try command.options.recorderIfAsked(initialState: state)
      let app = AppScreen(
        store: Store(initialState: state) {
          if let recorder { AppReducer().recording(to: recorder) } else { AppReducer() }
        } withDependencies: {
          dependencies(&$0)
        })
      app.appearIfNeeded()
      do {
        // Returns when the user quits, or a signal asked to, with the terminal given back.
        try await terminal.run(app, color: command.options.useColor)
      } catch {
        throw Failure("cannot use the terminal: \(error)")
      }
      // Preferences are written as they change; anything still gathering is written now.
      @Dependency(\.sharedReferences) var sharedReferences
      sharedReferences.flush()
      if !app.problemsWhileQuitting.isEmpty {
        throw Failure(app.problemsWhileQuitting.joined(separator: "\n"))
      }
      if app.exitStatus != 0 { throw ExitCode(app.exitStatus) }
    }
  }
}

extension AppReducer.Tab: ExpressibleByArgument {}
