import Foundation
import Testing

/// Every Swift block of every DocC article is code a test target compiles: each must stand, line
/// for line (indentation aside), in one of the package's test files. An article edited without
/// its code, or code changed without its article, fails here.
struct ArticleCodeTests {
  static let root = URL(filePath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The catalogs' articles, by path.
  static func articles() throws -> [URL] {
    let catalogs = [
      "Core/ComposableCore/ComposableCore.docc", "Core/ComposableSharing/ComposableSharing.docc",
      "Core/ComposableTestSupport/ComposableTestSupport.docc", "App/TerminalUI/TerminalUI.docc",
    ]
    return try catalogs.flatMap { catalog in
      try FileManager.default.contentsOfDirectory(
        at: root.appending(path: catalog), includingPropertiesForKeys: nil
      )
      .filter { $0.pathExtension == "md" }
    }
  }

  /// The ```swift blocks of a Markdown text.
  static func swiftBlocks(in text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift" {
        current = []
      } else if current != nil, trimmed == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// Lines without their indentation, blank lines left out.
  static func normalized(_ text: String) -> String {
    text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: "\n")
  }

  static func testSources() throws -> String {
    let tests = root.appending(path: "Tests")
    let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)!
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    return try files.map { normalized(try String(contentsOf: $0, encoding: .utf8)) }
      .joined(separator: "\n")
  }

  @Test func everyArticleHasItsCodeCompiled() throws {
    let sources = try Self.testSources()
    let articles = try Self.articles()
    #expect(articles.count >= 9)
    var blocks = 0
    for article in articles {
      for block in Self.swiftBlocks(in: try String(contentsOf: article, encoding: .utf8)) {
        blocks += 1
        #expect(
          sources.contains(Self.normalized(block)),
          "A block of \(article.lastPathComponent) is in no test file:\n\(block)")
      }
    }
    #expect(blocks >= 10)
  }

  @Test func aBlockIsFoundOnlyWhole() {
    let text = "Intro\n\n```swift\nlet a = 1\n  let b = 2\n```\n\n```sh\nls\n```\n"
    #expect(Self.swiftBlocks(in: text) == ["let a = 1\n  let b = 2"])
    #expect(Self.normalized("  let a = 1\n\n    let b = 2\n") == "let a = 1\nlet b = 2")
  }
}
