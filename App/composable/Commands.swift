import AppFeature
import ArgumentParser
import CacheClientLive
import ComposableCore
import CounterFeature
import FormFeature
import Foundation
import IssueReporting
import NavigationFeature
import NumberFactClient
import RefreshableListFeature
import SignUpClient
import TodoListFeature

@main
struct Composable: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "composable",
    abstract: "The Composable Architecture on Linux: five features in a terminal app.",
    discussion: "Without a subcommand, opens the interactive full-screen app.",
    version: "0.1.0",
    subcommands: [
      Interactive.self, Fact.self, Todos.self, Orders.self, SignUp.self, Contacts.self, Cache.self,
      Replay.self, Drive.self, Actions.self,
    ],
    defaultSubcommand: Interactive.self
  )

  // Declared here as well, so global options can come before the subcommand.
  @OptionGroup var options: GlobalOptions

  static func main() async {
    // A problem the runtime reports (a preferences file it could not read, say) is the user's
    // to know about, in their words: not as a source location of the package.
    IssueReporters.current = [WarningReporter()]
    await main(nil)
  }
}

/// Prints reported issues on standard error as warnings.
struct WarningReporter: IssueReporter {
  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {
    Output.warning(message() ?? "something went wrong")
  }
}

// MARK: fact

struct Fact: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Prints a trivia fact about a number.")

  @OptionGroup var options: GlobalOptions
  @Argument(help: "The number.") var number: Int
  @Flag(help: "Print JSON: {\"number\": n, \"fact\": \"…\"}.") var json = false

  func run() async throws {
    let (options, number, json) = (options, number, json)
    try await runCommand {
      let responses = ActionLog<Result<String, NumberFactError>>()
      let store = try commandStore(options, Counter.State(count: number)) {
        Counter()
        responses.recording { if case .factResponse(let result) = $0 { result } else { nil } }
      }
      await store.send(.factButtonTapped).finish()
      switch responses.last {
      case .success(let fact)?:
        if json {
          try Output.json(FactOutput(number: number, fact: fact))
        } else {
          Output.line(fact)
        }
      case .failure(let error)?:
        throw Failure(error.errorDescription ?? "\(error)")
      case nil:
        throw Failure("no fact arrived")
      }
    }
  }
}

struct FactOutput: Codable {
  var number: Int
  var fact: String
}

// MARK: signup

struct SignUp: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "signup",
    abstract: "Creates an account through the sign-up form."
  )

  @OptionGroup var options: GlobalOptions
  @Option(help: "The email.") var email: String
  @Option(help: "The password: 8 characters or more, with a letter and a digit.") var password:
    String
  @Option(help: "The password again.") var confirm: String
  @Flag(help: "Accept the terms.") var acceptTerms = false
  @Flag(help: "Print JSON: {\"email\": …, \"status\": \"created\"}.") var json = false

  func run() async throws {
    let (options, email, password, confirm, acceptTerms, json) =
      (options, email, password, confirm, acceptTerms, json)
    try await runCommand {
      let accounts = ActionLog<SignUpResponse>()
      let store = try commandStore(options, SignUpForm.State()) {
        SignUpForm()
        accounts.recording {
          if case .delegate(.accountCreated(let account)) = $0 { account } else { nil }
        }
      }
      // Each assignment sends the binding view action, as typing into the field would.
      store.email = email
      store.password = password
      store.confirmPassword = confirm
      store.acceptTerms = acceptTerms
      await store.send(.view(.submitButtonTapped)).finish()
      let errors = SignUpField.allCases.compactMap { field in
        store.state.error(for: field).map { "\(field.option): \($0)" }
      }
      guard errors.isEmpty else { throw Failure(errors.joined(separator: "\n")) }
      guard let account = accounts.last else {
        // No account: the form shows why in its alert.
        let alert = store.state.alert
        throw Failure(
          alert?.message?.string ?? alert?.title.string ?? "no answer from the sign-up server")
      }
      if json {
        try Output.json(["email": account.email, "status": "created"])
      } else {
        Output.line(store.state.alert?.message?.string ?? "Signed up as \(account.email).")
      }
    }
  }
}

extension SignUpField {
  /// The option of `signup` that gives this field.
  var option: String {
    switch self {
    case .email: "--email"
    case .password: "--password"
    case .confirmPassword: "--confirm"
    case .acceptTerms: "--accept-terms"
    }
  }
}
