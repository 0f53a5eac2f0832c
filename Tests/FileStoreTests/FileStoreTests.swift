import ConcurrencyExtras
import FileStore
import FileSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

struct Note: Codable, Equatable, Sendable {
  var text: String
}

/// A fresh directory for one test, removed afterwards.
final class TemporaryDirectory: @unchecked Sendable {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("file-store-\(UUID().uuidString)")

  init() {
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  var names: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }
}

/// A client's error type for the notes, as a client declares one.
enum StoredNotesError: StoredDataError, Equatable {
  case corrupt(keptAt: String)
  case unreadable(String)
  case unwritable(String)
}

struct FileStoreTests {
  @Test func aMissingFileReadsAsEmpty() throws {
    let directory = TemporaryDirectory()
    let store = FileStore<[Note]>(url: directory.file("notes.json"), emptyValue: [])
    #expect(try store.load() == [])
  }

  @Test func roundTripCreatesAPrivateDirectoryAndFile() throws {
    let directory = TemporaryDirectory()
    let store = FileStore<[Note]>(url: directory.file("deep/notes.json"), emptyValue: [])
    try store.save([Note(text: "a")])
    try store.update { $0.append(Note(text: "b")) }
    #expect(try store.load() == [Note(text: "a"), Note(text: "b")])
    let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
    #expect(attributes[.posixPermissions] as? Int == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(
      atPath: directory.file("deep").path
    )
    #expect(directoryAttributes[.posixPermissions] as? Int == 0o700)
    // Human-readable JSON, stable key order.
    let text = try String(contentsOf: store.url, encoding: .utf8)
    #expect(text.contains(#""text" : "a""#))
  }

  @Test func aCorruptFileIsKeptAsideAndReportedNeverOverwritten() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("notes.json")
    let garbage = Data("{ this is not json".utf8)
    try garbage.write(to: url)
    let store = FileStore<[Note]>(url: url, emptyValue: []) {
      Date(timeIntervalSince1970: 1_700_000_000)
    }
    let aside = url.path + ".corrupt-20231114T221320Z"
    #expect {
      try store.load()
    } throws: { error in
      guard case .corrupt(let movedTo, let reason)? = error as? FileStoreError else { return false }
      return movedTo == aside && reason.contains("not valid JSON")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == garbage)
    // The store starts over; a second corrupt file does not replace the first one kept aside.
    try store.save([Note(text: "fresh")])
    #expect(try store.load() == [Note(text: "fresh")])
    try Data("[1, 2]".utf8).write(to: url)
    #expect(throws: FileStoreError.self) { try store.update { $0.append(Note(text: "x")) } }
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == garbage)
    #expect(directory.names.contains("notes.json.corrupt-20231114T221320Z-1"))
    #expect(!directory.names.contains("notes.json"))
  }

  /// Where the lock file cannot be made (its directory is a file), loading reports data that
  /// cannot be read, and a change reports that it was not saved.
  @Test func aLockThatCannotBeTakenIsReportedAsWhatWasBeingDone() async throws {
    let directory = TemporaryDirectory()
    try Data("not a directory".utf8).write(to: directory.file("data"))
    let store = FileStore<[Note]>(url: directory.file("data/notes.json"), emptyValue: [])
    let reason = "cannot lock \(directory.file("data/notes.json.lock").path): Not a directory"
    await #expect(throws: StoredNotesError.unreadable(reason)) {
      try await store.load(reportingAs: StoredNotesError.self)
    }
    await #expect(throws: StoredNotesError.unwritable(reason)) {
      try await store.update(reportingAs: StoredNotesError.self) { $0.append(Note(text: "a")) }
    }
  }

  /// Loads and saves waiting for a lock that another process holds wait off Swift's concurrency
  /// threads: blocked on them, two waits stopped every other task of a two-core machine (in the
  /// app, its timers and the reading of keys) until the other process let go.
  ///
  /// Checked by where the waiting code runs, not by timing a task: other tests in the same
  /// process hold every concurrency thread on purpose (`keysAreReadWhileEveryConcurrencyThreadWaits`),
  /// and a task timed while they did failed this test now and then. The change an update makes
  /// runs on the thread that waited for the lock, and must run outside any task.
  @Test func waitingForALockLeavesTheConcurrencyThreadsFree() async throws {
    let directory = TemporaryDirectory()
    let store = FileStore<[Note]>(url: directory.file("notes.json"), emptyValue: [])
    try store.save([Note(text: "kept")])
    // Another process's lock: a description of the lock file of its own.
    let lock = open(directory.file("notes.json.lock").path, O_RDWR)
    #expect(flock(lock, LOCK_EX) == 0)
    let changesInATask = LockIsolated(0)
    // More waits than there are threads, loads and updates.
    let waits = (0..<ProcessInfo.processInfo.activeProcessorCount * 2 + 2).map { index in
      Task {
        if index.isMultiple(of: 2) {
          try await store.update(reportingAs: StoredNotesError.self) {
            if withUnsafeCurrentTask(body: { $0 != nil }) {
              changesInATask.withValue { $0 += 1 }
            }
            $0.append(Note(text: "\(index)"))
          }
        }
        return try await store.load(reportingAs: StoredNotesError.self).count
      }
    }
    flock(lock, LOCK_UN)
    close(lock)
    for wait in waits { _ = try await wait.value }
    #expect(changesInATask.value == 0)
    #expect(try store.load().count == 1 + (waits.count + 1) / 2)
  }

  @Test func aWriteCutBeforeTheRenameKeepsTheOldFile() throws {
    struct PowerCut: Error {}
    let directory = TemporaryDirectory()
    let url = directory.file("notes.json")
    try FileStore<[Note]>(url: url, emptyValue: []).save([Note(text: "old")])
    let before = try Data(contentsOf: url)
    let failing = FileStore<[Note]>(url: url, emptyValue: []) {
      Date()
    } beforeRename: {
      throw PowerCut()
    }
    #expect(throws: FileStoreError.self) { try failing.update { $0 = [Note(text: "new")] } }
    #expect(try Data(contentsOf: url) == before)
    #expect(try failing.load() == [Note(text: "old")])
    // No temporary file is left behind.
    #expect(directory.names == ["notes.json", "notes.json.lock"])
  }

  /// The signature a write returns is the one its file keeps in place, and another write of the
  /// same bytes has another.
  @Test func aWriteReturnsTheSignatureOfTheFileItLeft() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("notes.json")
    let store = FileStore<[Note]>(url: url, emptyValue: [])
    let saved = try #require(try store.save([Note(text: "one")]))
    #expect(saved == FileSignature(path: url.path))
    let updated = try #require(try store.updateSigned { $0 = [Note(text: "one")] }.signature)
    #expect(updated == FileSignature(path: url.path))
    #expect(updated != saved)
    // Another writer's file is not this one, though both hold the same bytes.
    try FileStore<[Note]>(url: url, emptyValue: []).save([Note(text: "one")])
    #expect(FileSignature(path: url.path) != updated)
  }

  @Test func aFailingChangeWritesNothing() throws {
    struct Refused: Error {}
    let directory = TemporaryDirectory()
    let store = FileStore<[Note]>(url: directory.file("notes.json"), emptyValue: [])
    try store.save([Note(text: "kept")])
    #expect(throws: FileStoreError.rejected(reason: "Refused()")) {
      try store.update { _ in throw Refused() }
    }
    #expect(try store.load() == [Note(text: "kept")])
  }

  @Test func fiftyConcurrentWritersLoseNothing() async throws {
    let directory = TemporaryDirectory()
    let url = directory.file("notes.json")
    let finished = DispatchGroup()
    for index in 0..<50 {
      finished.enter()
      // Each writer is a separate store value on its own thread, as separate processes would be.
      Thread {
        defer { finished.leave() }
        let store = FileStore<[Note]>(url: url, emptyValue: [])
        _ = try? store.update { $0.append(Note(text: "writer \(index)")) }
      }.start()
    }
    // Told, not waited for: a global queue's thread blocked in `wait()` is one that every other
    // test's tasks need.
    await withCheckedContinuation { continuation in
      finished.notify(queue: .global()) { continuation.resume() }
    }
    let notes = try FileStore<[Note]>(url: url, emptyValue: []).load()
    #expect(notes.count == 50)
    #expect(Set(notes.map(\.text)) == Set((0..<50).map { "writer \($0)" }))
  }
}
