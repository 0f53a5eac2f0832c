import Foundation
import FuzzTargets
import Testing

/// Every input in `Fuzz/Corpus` — the seeds, and each input that once crashed a target — fed to
/// its target again: a crash here fails the run, so a bug libFuzzer found stays fixed. The cache
/// entries' corpus is the live cache's tests' (`CorruptionTests`).
struct FuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/Corpus")

  @Test(arguments: FuzzTargets.all.keys.sorted())
  func everyInputOfTheCorpusIsReadWithoutACrash(target: String) throws {
    let folder = Self.corpus.appendingPathComponent(target)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(!files.isEmpty, "Fuzz/Corpus/\(target) has no inputs")
    let run = try #require(FuzzTargets.all[target])
    for file in files {
      run(try Data(contentsOf: folder.appendingPathComponent(file)))
    }
  }
}
