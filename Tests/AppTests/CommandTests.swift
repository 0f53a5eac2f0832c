import Foundation
import HTTPTestServer
import Testing

/// The command line, run as a person or a script would: the built binary, real files, real
/// HTTP on 127.0.0.1.
@Suite(.serialized)
struct CommandTests {
  @Test func versionAndHelp() async throws {
    #expect(try await runBinary(["--version"]).stdout == "0.1.0\n")
    let help = try await runBinary(["--help"])
    #expect(help.status == 0)
    for command in ["fact", "todos", "orders", "signup", "contacts", "cache", "tui"] {
      #expect(help.stdout.contains(command))
    }
    #expect(try await runBinary(["todos", "add", "--help"]).stdout.contains("--priority"))
  }

  @Test func usageErrorsExitWith64() async throws {
    for arguments in [
      ["bogus"], ["todos", "list", "--filter", "later"], ["orders", "--page", "1", "--all"],
      ["orders", "--status", "lost"], ["fact"], ["fact", "x"],
      ["--fact-url", "ftp://x", "fact", "1"],
      ["todos", "add", "t", "--priority", "urgent"],
      ["cache", "--record", "x.rec"], ["todos", "list", "--record", ""],
    ] {
      let run = try await runBinary(arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.stderr.contains("Usage:") || run.stderr.contains("Error:"), "\(arguments)")
    }
  }

  @Test func numbersOutOfRangeAreUsageErrorsThatSayTheRange() async throws {
    let sandbox = Sandbox()
    for (arguments, range) in [
      (["drive", "counter", "--wait", "inf"], "from 0 to 3600 seconds"),
      (["drive", "counter", "--wait", "1e300"], "from 0 to 3600 seconds"),
      (["drive", "counter", "--wait", "nan"], "from 0 to 3600 seconds"),
      (["drive", "counter", "--wait=-1"], "from 0 to 3600 seconds"),
      (["replay", "x", "--screen", "--height", "9223372036854775807"], "from 1 to 1000"),
      (
        ["replay", "x", "--screen", "--width", "2000000000", "--height", "2000000000"],
        "from 1 to 1000"
      ),
      (["replay", "x", "--screen", "--width", "0"], "from 1 to 1000"),
      (["orders", "--page", "100001"], "from 0 to 100000"),
      (["replay", "x", "--width", "100"], "add --screen"),
    ] {
      let run = try await sandbox.run(arguments, input: "")
      #expect(run.status == 64, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains(range), "\(arguments): \(run.stderr)")
    }
  }

  @Test func directoryOptionsMustNameDirectories() async throws {
    let sandbox = Sandbox()
    try FileManager.default.createDirectory(at: sandbox.root, withIntermediateDirectories: true)
    let file = sandbox.root.appendingPathComponent("a-file")
    try Data().write(to: file)
    for arguments in [
      ["todos", "add", "x", "--data-dir", ""], ["cache", "--cache-dir", ""],
      ["todos", "list", "--config-dir", ""], ["todos", "list", "--data-dir", file.path],
    ] {
      let run = try await runBinary(arguments)
      #expect(run.status == 64, "\(arguments): \(run.stderr)")
      #expect(run.stderr.contains("directory"), "\(arguments): \(run.stderr)")
    }
    // Nothing was written where the empty path would have led: the current directory.
    #expect(!FileManager.default.fileExists(atPath: "todos.json"))
  }

  @Test func aCorruptPreferencesFileIsAWarningInTheUsersWords() async throws {
    let sandbox = Sandbox()
    try FileManager.default.createDirectory(at: sandbox.config, withIntermediateDirectories: true)
    try Data("{".utf8).write(to: sandbox.config.appendingPathComponent("settings.json"))
    let run = try await sandbox.run(["todos", "list"])
    #expect(run.status == 0)
    #expect(run.stderr.hasPrefix("warning: Could not load"), "\(run.stderr)")
    #expect(!run.stderr.contains(".swift:"), "\(run.stderr)")
  }

  @Test func cacheCommandsDoNotCreateTheDirectoryTheyInspect() async throws {
    let sandbox = Sandbox()
    let missing = sandbox.root.appendingPathComponent("no/such/dir")
    for command in [["cache", "stats", "--json"], ["cache", "clear"], ["cache", "prune"]] {
      let run = try await runBinary(command + ["--cache-dir", missing.path])
      #expect(run.status == 0, "\(command): \(run.stderr)")
    }
    let stats = try await runBinary(["cache", "stats", "--json", "--cache-dir", missing.path])
    #expect(stats.stdout.contains(#""entries" : 0"#))
    #expect(!FileManager.default.fileExists(atPath: sandbox.root.path))
  }

  @Test func theInteractiveModeNeedsATerminal() async throws {
    let run = try await runBinary([])
    #expect(run.status == 64)
    #expect(run.stderr.contains("needs a terminal"))
  }

  @Test func todosPersistBetweenRuns() async throws {
    let sandbox = Sandbox()
    let added = try await sandbox.run(["todos", "add", "Buy milk", "--priority", "high", "--json"])
    #expect(added.status == 0)
    let todo = try #require(try decodeJSON(added.stdout) as? [String: Any])
    #expect(Set(todo.keys) == ["id", "title", "completed", "priority", "createdAt"])
    #expect(todo["title"] as? String == "Buy milk")
    #expect(todo["priority"] as? String == "high")
    let id = try #require(todo["id"] as? String)
    #expect(try await sandbox.run(["todos", "add", "Call mum"]).stdout.hasPrefix("Added "))

    // Global options before the subcommand work as well as after it.
    let list = try await runBinary(["--data-dir", sandbox.data.path, "todos", "list"])
    #expect(list.stdout.contains("[ ] Buy milk (high)"))
    #expect(list.stdout.contains("[ ] Call mum (medium)"))

    #expect(
      try await sandbox.run(["todos", "done", String(id.prefix(6))]).stdout.contains("Done:"))
    let completed = try await sandbox.run(["todos", "list", "--filter", "completed", "--json"])
    let todos = try #require(try decodeJSON(completed.stdout) as? [[String: Any]])
    #expect(todos.map { $0["title"] as? String } == ["Buy milk"])
    #expect(todos.first?["completed"] as? Bool == true)

    #expect(
      try await sandbox.run(["todos", "list", "--search", "MUM"]).stdout.contains("Call mum"))
    #expect(try await sandbox.run(["todos", "undone", id]).status == 0)
    #expect(try await sandbox.run(["todos", "done", id]).status == 0)
    #expect(
      try await sandbox.run(["todos", "clear-completed"]).stdout == "Deleted 1 completed todo.\n")
    let remaining = try await sandbox.run(["todos", "list", "--json"])
    let left = try #require(try decodeJSON(remaining.stdout) as? [[String: Any]])
    #expect(left.map { $0["title"] as? String } == ["Call mum"])
    let removed = try await sandbox.run(["todos", "rm", left[0]["id"] as! String])
    #expect(removed.stdout.hasPrefix("Deleted "))
    #expect(try await sandbox.run(["todos"]).stdout == "No todos.\n")
  }

  @Test func todoFailuresExitWith1AndSaySo() async throws {
    let sandbox = Sandbox()
    let blank = try await sandbox.run(["todos", "add", "   "])
    #expect(blank.status == 1)
    #expect(blank.stderr == "error: A todo needs a title.\n")
    let missing = try await sandbox.run(["todos", "done", "ffff"])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("no todo has an id starting with 'ffff'"))
    _ = try await sandbox.run(["todos", "add", "a"])
    _ = try await sandbox.run(["todos", "add", "b"])
    let ambiguous = try await sandbox.run(["todos", "done", ""])
    #expect(ambiguous.status == 1)
    #expect(ambiguous.stderr.contains("matches 2 todos"))
  }

  @Test func aCorruptTodosFileIsReportedAndKept() async throws {
    let sandbox = Sandbox()
    try FileManager.default.createDirectory(at: sandbox.data, withIntermediateDirectories: true)
    let file = sandbox.data.appendingPathComponent("todos.json")
    try Data("[{\"title\": \"half a todo\"".utf8).write(to: file)
    let run = try await sandbox.run(["todos", "list"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("could not be read. It was kept as \(file.path).corrupt-"))
    let kept = try FileManager.default.contentsOfDirectory(atPath: sandbox.data.path)
      .filter { $0.hasPrefix("todos.json.corrupt-") }
    #expect(kept.count == 1)
    #expect(
      try String(contentsOf: sandbox.data.appendingPathComponent(kept[0]), encoding: .utf8)
        == "[{\"title\": \"half a todo\""
    )
    // The next run starts a fresh list; the corrupt file is still kept.
    #expect(try await sandbox.run(["todos", "add", "fresh"]).status == 0)
    #expect(
      FileManager.default.fileExists(atPath: sandbox.data.appendingPathComponent(kept[0]).path))
  }

  @Test func ordersPagesAndJSON() async throws {
    let sandbox = Sandbox()
    let first = try await sandbox.run(["orders"])
    #expect(first.status == 0)
    #expect(first.stdout.split(separator: "\n").count == 10)
    #expect(first.stdout.hasPrefix("ORD-00001"))
    let page = try await sandbox.run(["orders", "--page", "4", "--json"])
    let json = try #require(try decodeJSON(page.stdout) as? [String: Any])
    #expect(json["page"] as? Int == 4)
    #expect(json["hasMorePages"] as? Bool == false)
    #expect(json["filter"] as? String == "all")
    let orders = try #require(json["orders"] as? [[String: Any]])
    #expect(orders.count == 7)
    #expect(
      Set(orders[0].keys) == ["id", "number", "customer", "totalCents", "status", "itemCount"])
    let shipped = try await sandbox.run(["orders", "--status", "shipped", "--all", "--json"])
    let all = try #require(try decodeJSON(shipped.stdout) as? [String: Any])
    let statuses = (all["orders"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
    #expect(statuses?.isEmpty == false)
    #expect(statuses?.allSatisfy { $0 == "shipped" } == true)
    #expect(try await sandbox.run(["orders", "--status", "none"]).stdout == "No orders.\n")
    let beyond = try await sandbox.run(["orders", "--page", "9"])
    #expect(beyond.status == 1)
    #expect(beyond.stderr.contains("there is no page 9"))
  }

  @Test func ordersFromAnHTTPServerAndItsFailures() async throws {
    let sandbox = Sandbox()
    let server = try await HTTPTestServer { _ in .text("down", status: 500) }
    defer { Task { try await server.shutdown() } }
    let run = try await sandbox.run(["orders", "--orders-url", server.baseURL.absoluteString])
    #expect(run.status == 1)
    #expect(run.stderr == "error: The orders server failed (status 500).\n")
    // Three automatic retries happened before giving up.
    #expect(server.requests.count == 4)
  }

  @Test func contactsAddAndList() async throws {
    let sandbox = Sandbox()
    #expect(
      try await sandbox.run(["contacts", "add", "--name", "Ada", "--email", "ada@example.com"])
        .status
        == 0)
    let json = try await sandbox.run([
      "contacts", "add", "--name", "Alan", "--phone", "123", "--json",
    ])
    let alan = try #require(try decodeJSON(json.stdout) as? [String: Any])
    #expect(Set(alan.keys) == ["id", "name", "email", "phone", "notes", "favorite"])
    let list = try await sandbox.run(["contacts", "list"])
    #expect(list.stdout == "  Ada  <ada@example.com>\n  Alan  123\n")
    let bad = try await sandbox.run(["contacts", "add", "--name", " ", "--email", "nope"])
    #expect(bad.status == 1)
    #expect(bad.stderr == "error: A contact needs a name.\nEnter a valid email address.\n")
  }

  @Test func factThroughTheCacheAndCacheStats() async throws {
    let sandbox = Sandbox()
    let server = try await HTTPTestServer { request in
      .text("\(request.path.dropFirst()) is a fine number.")
    }
    defer { Task { try await server.shutdown() } }
    let fact = try await sandbox.run([
      "fact", "42", "--fact-url", server.baseURL.absoluteString, "--json",
    ])
    #expect(fact.status == 0)
    let json = try #require(try decodeJSON(fact.stdout) as? [String: Any])
    #expect(json["number"] as? Int == 42)
    #expect(json["fact"] as? String == "42 is a fine number.")
    let stats = try await sandbox.run(["cache", "stats", "--json"])
    let counts = try #require(try decodeJSON(stats.stdout) as? [String: Any])
    #expect(counts["entries"] as? Int == 1)
    #expect((counts["bytesOnDisk"] as? Int ?? 0) > 48)
    // A second run answers from the cache even with the server gone.
    try await server.shutdown()
    let cached = try await sandbox.run(["fact", "42", "--fact-url", server.baseURL.absoluteString])
    #expect(cached.stdout == "42 is a fine number.\n")
    #expect(try await sandbox.run(["cache", "prune"]).stdout == "Removed 0 entries.\n")
    #expect(try await sandbox.run(["cache", "clear"]).stdout == "Cache cleared.\n")
    #expect(try await sandbox.run(["cache", "stats"]).stdout.contains("Entries: 0"))
  }

  @Test func aFactFromAnUnreachableServerFails() async throws {
    let sandbox = Sandbox()
    let run = try await HTTPTestServer.withUnusedPort { port in
      try await sandbox.run(["fact", "7", "--fact-url", "http://127.0.0.1:\(port)"])
    }
    #expect(run.status == 1)
    #expect(run.stderr == "error: The number facts server could not be reached.\n")
  }

  @Test func signupAgainstALocalServer() async throws {
    let sandbox = Sandbox()
    let server = try await HTTPTestServer { request in
      request.body.count > 0
        ? .json(["userID": "u-9", "email": "ada@example.com"], status: 201) : .text("", status: 400)
    }
    defer { Task { try await server.shutdown() } }
    let url = server.baseURL.appendingPathComponent("signup").absoluteString
    let ok = try await sandbox.run([
      "signup", "--email", "ada@example.com", "--password", "engine42", "--confirm", "engine42",
      "--accept-terms", "--signup-url", url, "--json",
    ])
    #expect(ok.status == 0)
    #expect(
      try decodeJSON(ok.stdout) as? [String: String] == [
        "email": "ada@example.com", "status": "created",
      ])
    // The account is a shared preference the app's header shows in later runs.
    let settings = try String(
      contentsOf: sandbox.config.appendingPathComponent("settings.json"), encoding: .utf8)
    #expect(settings.contains(#""account.email" : "ada@example.com""#))
    let invalid = try await sandbox.run([
      "signup", "--email", "ada", "--password", "short", "--confirm", "other", "--signup-url", url,
    ])
    #expect(invalid.status == 1)
    #expect(
      invalid.stderr
        == "error: --email: Enter a valid email address.\n--password: Use at least 8 characters.\n"
        + "--confirm: Passwords do not match.\n--accept-terms: Accept the terms to continue.\n"
    )
    #expect(server.requests.count == 1)
  }
}
