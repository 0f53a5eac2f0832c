import ComposableSharing
import ComposableTestSupport
import Foundation
import Testing

struct User: Codable, Equatable, Sendable {
  var name: String
  var age: Int
}

@MainActor
struct SharedInMemoryTests {
  @Test func twoHoldersSeeEachOthersWrites() {
    @Shared(.inMemory("count")) var first = 0
    @Shared(.inMemory("count")) var second = 0
    $first.withLock { $0 += 1 }
    #expect(second == 1)
    $second.withLock { $0 = 10 }
    #expect(first == 10)
    #expect($first.isSameReference(as: $second))
  }

  @Test func aValueOutlivesItsHolders() {
    do {
      @Shared(.inMemory("kept")) var value = "a"
      $value.withLock { $0 = "b" }
    }
    @Shared(.inMemory("kept")) var again = "z"
    #expect(again == "b")
  }

  @Test func differentKeysAreDifferentValues() {
    @Shared(.inMemory("one")) var one = 1
    @Shared(.inMemory("two")) var two = 2
    $one.withLock { $0 = 5 }
    #expect(two == 2)
  }

  @Test func aValueHandedOverIsTheSameValue() {
    let shared = Shared(value: [1])
    let other = Shared(projectedValue: shared)
    other.withLock { $0.append(2) }
    #expect(shared.wrappedValue == [1, 2])
  }

  @Test func derivedValuesReadAndWriteThroughTheirRoot() {
    @Shared(.inMemory("user")) var user = User(name: "Blob", age: 3)
    let name: Shared<String> = $user.name
    name.withLock { $0 = "Blob Jr." }
    #expect(user.name == "Blob Jr.")
    $user.withLock { $0.name = "Blob Sr." }
    #expect(name.wrappedValue == "Blob Sr.")
  }

  @Test func readersFollowWithoutWriting() {
    @Shared(.inMemory("flag")) var flag = false
    @SharedReader(.inMemory("flag")) var reader = true
    #expect(reader == false)
    $flag.withLock { $0 = true }
    #expect(reader)
    let fromShared = SharedReader($flag)
    #expect(fromShared.wrappedValue)
  }

  @Test func observationFiresForReaders() {
    @Shared(.inMemory("observed")) var value = 0
    let changes = LockIsolated(0)
    withObservationTracking {
      _ = value
    } onChange: {
      changes.withValue { $0 += 1 }
    }
    $value.withLock { $0 += 1 }
    #expect(changes.value == 1)
  }

  @Test func aDefaultCanComeFromAnotherSharedValue() {
    @Shared(.inMemory("base")) var base = 5
    @Shared(.inMemory("derived")) var derived = base * 2
    #expect(derived == 10)
  }

  @Test func eachTestHasItsOwnInMemoryValues() {
    // Another test uses "count" too; this one starts from its own default.
    @Shared(.inMemory("count")) var count = 42
    #expect(count == 42)
  }
}

/// Real files in a temporary directory, through the live storage.
@MainActor
final class SharedFileStorageTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("shared-\(UUID().uuidString)")

  // Each test runs on an instance of its own, whose files go with it.
  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Runs `body` with shared values of its own, kept in `storage`, settings in this test's
  /// directory.
  func withLiveFiles<R>(
    _ storage: any FileStorage = LiveFileStorage(), _ body: () throws -> R
  ) rethrows -> R {
    try withDependencies(keeping(in: storage)) {
      try body()
    }
  }

  func withLiveFilesAsync<R>(
    _ storage: any FileStorage = LiveFileStorage(), _ body: () async throws -> R
  ) async rethrows -> R {
    try await withDependencies(keeping(in: storage)) {
      try await body()
    }
  }

  func keeping(in storage: any FileStorage) -> (inout DependencyValues) -> Void {
    { [directory] dependencies in
      dependencies.defaultFileStorage = storage
      dependencies.sharedReferences = SharedReferences()
      dependencies.appStorageURL = directory.appendingPathComponent("settings.json")
    }
  }

  func read(_ url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8)
  }

  @Test func aChangeIsWrittenAndARestartSeesIt() async throws {
    let url = directory.appendingPathComponent("user.json")
    try await withLiveFilesAsync {
      @Shared(.fileStorage(url)) var user = User(name: "Blob", age: 3)
      $user.withLock { $0.age = 4 }
      try await $user.save()
    }
    #expect(try JSONDecoder().decode(User.self, from: Data(contentsOf: url)).age == 4)
    withLiveFiles {
      @Shared(.fileStorage(url)) var user = User(name: "Nobody", age: 0)
      #expect(user == User(name: "Blob", age: 4))
    }
  }

  /// Each watched file is loaded on a thread of its own when it changes. The watches ran on a
  /// global queue, whose threads are the concurrency pool's on Linux: as many loads waiting for
  /// another process's lock as there are cores held every task, and the other files' loads.
  @Test func loadsWaitingForALockHoldNoSharedThread() async throws {
    let count = ProcessInfo.processInfo.activeProcessorCount + 1
    let urls = (0..<count).map { directory.appendingPathComponent("watched-\($0).json") }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for url in urls { try Data("0".utf8).write(to: url) }
    let storage = GatedStorage()
    let scores = withLiveFiles(storage) {
      urls.map { Shared(wrappedValue: -1, .fileStorage($0)) }
    }
    #expect(scores.map(\.wrappedValue) == Array(repeating: 0, count: count))
    storage.armed.setValue(true)
    for url in urls { try replaceFile(at: url, with: Data("1".utf8)) }
    // From a thread of its own, which opens the gate within seconds whatever happens, so that
    // loads holding every thread fail this test rather than hang it.
    let waitingAtOnce = await withCheckedContinuation { continuation in
      Thread {
        var waitingAtOnce = 0
        // Each load gets its thread at once, or this waits past the second a pool takes to grow.
        let deadline = DispatchTime.now() + .milliseconds(700)
        while waitingAtOnce < count, storage.waiting.wait(timeout: deadline) == .success {
          waitingAtOnce += 1
        }
        storage.gate.signal()
        continuation.resume(returning: waitingAtOnce)
      }.start()
    }
    #expect(waitingAtOnce == count)
    // Nothing is lost: each holder sees its file's new value once the gate is open.
    let deadline = ContinuousClock.now + .seconds(5)
    while scores.contains(where: { $0.wrappedValue != 1 }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(scores.map(\.wrappedValue) == Array(repeating: 1, count: count))
  }

  /// Another process's value, read while a change of ours is on its way to the file: our write
  /// lands after it, so the holders keep ours, as the file does.
  @Test func aValueReadBeforeAWriteOfOursIsNotPutOverIt() async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("raced.json")
    try Data("0".utf8).write(to: url)
    let storage = GatedStorage(readFirst: true)
    try await withLiveFilesAsync(storage) {
      @Shared(.fileStorage(url)) var count = -1
      #expect(count == 0)
      storage.armed.setValue(true)
      try replaceFile(at: url, with: Data("5".utf8))
      // The watch has read 5 and holds it.
      #expect(storage.waiting.wait(timeout: .now() + .seconds(20)) == .success)
      let saved = DispatchSemaphore(value: 0)
      @Dependency(\.sharedReferences) var references
      Thread { [$count] in
        $count.withLock { $0 = 8 }
        // Written now, from this thread, rather than at the end of the save interval.
        references.flush()
        saved.signal()
      }.start()
      // Our change is made while the watch still holds the 5 it read from before it.
      let changed = ContinuousClock.now + .seconds(20)
      while count != 8, ContinuousClock.now < changed { await Task.yield() }
      #expect(count == 8)
      storage.gate.signal()
      #expect(saved.wait(timeout: .now() + .seconds(20)) == .success)
      // Polls run one after another: once a poll begins after the save, the one that read 5 has
      // handed it on or dropped it.
      let asked = storage.signatures.value
      let deadline = ContinuousClock.now + .seconds(20)
      while storage.signatures.value == asked, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(try JSONDecoder().decode(Int.self, from: Data(contentsOf: url)) == 8)
      #expect(count == 8)
    }
  }

  /// Another process's write landing just after ours, before we could look at the file, is
  /// theirs: the holders pick it up, and do not keep showing ours.
  @Test func aWriteRightAfterOursIsPickedUp() async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("followed.json")
    let storage = FollowedStorage()
    try await withLiveFilesAsync(storage) {
      @Shared(.fileStorage(url)) var count = 0
      storage.follower.setValue(Data("42".utf8))
      $count.withLock { $0 = 7 }
      try await $count.save()
      #expect(try JSONDecoder().decode(Int.self, from: Data(contentsOf: url)) == 42)
      let deadline = ContinuousClock.now + .seconds(20)
      while count != 42, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(count == 42)
    }
  }

  @Test func aBurstOfEditsIsOneWrite() async throws {
    let url = directory.appendingPathComponent("burst.json")
    let counting = CountingStorage()
    try await withLiveFilesAsync(counting) { () async throws in
      @Shared(.fileStorage(url)) var count = 0
      for _ in 0..<1_000 { $count.withLock { $0 += 1 } }
      #expect(counting.saves.value == 0)
      // The save comes once the interval (a second) has passed.
      for await _ in counting.saved { break }
      // Anything still waiting for an interval is written now: nothing is.
      @Dependency(\.sharedReferences) var references
      references.flush()
      #expect(counting.saves.value == 1)
      #expect(try JSONDecoder().decode(Int.self, from: Data(contentsOf: url)) == 1_000)
    }
  }

  @Test func anEditByAnotherProgramIsPickedUp() async throws {
    let url = directory.appendingPathComponent("external.json")
    try await withLiveFilesAsync {
      @Shared(.fileStorage(url)) var user = User(name: "Blob", age: 3)
      try await $user.save()
      try replaceFile(at: url, with: JSONEncoder().encode(User(name: "Edited", age: 9)))
      let deadline = ContinuousClock.now.advanced(by: .seconds(20))
      while user.name != "Edited", ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(user == User(name: "Edited", age: 9))
    }
  }

  /// In a test the error is the holder's `loadError`, as in swift-sharing; an app reports it.
  @Test func aCorruptFileIsKeptAsideAndReported() async throws {
    let url = directory.appendingPathComponent("corrupt.json")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("{ not json".utf8).write(to: url)
    try await withLiveFilesAsync {
      @Shared(.fileStorage(url)) var user = User(name: "Default", age: 1)
      #expect(user == User(name: "Default", age: 1))
      let error = try #require($user.loadError)
      #expect(String(describing: error).contains("corrupt.json.corrupt-"))
      let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasPrefix("corrupt.json.corrupt-") }
      #expect(aside.count == 1)
      #expect(try read(directory.appendingPathComponent(aside[0])) == "{ not json")
      // The value goes on working, and the next write makes a good file beside the kept one.
      $user.withLock { $0.age = 2 }
      try await $user.save()
      #expect(try JSONDecoder().decode(User.self, from: Data(contentsOf: url)).age == 2)
    }
  }

  @Test func settingsShareOneFileAndKeepEachOther() throws {
    let settings = directory.appendingPathComponent("settings.json")
    withLiveFiles {
      @Shared(.appStorage("soundsOn")) var soundsOn = true
      @Shared(.appStorage("volume")) var volume = 5
      $soundsOn.withLock { $0 = false }
      $volume.withLock { $0 = 7 }
    }
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: settings)) as? [String: Any]
    #expect(json?["soundsOn"] as? Bool == false)
    #expect(json?["volume"] as? Int == 7)
    withLiveFiles {
      @SharedReader(.appStorage("soundsOn")) var soundsOn = true
      @SharedReader(.appStorage("volume")) var volume = 0
      #expect(soundsOn == false)
      #expect(volume == 7)
    }
  }

  @Test func twoHoldersOfAFileOrASettingSeeEachOthersWrites() async throws {
    let url = directory.appendingPathComponent("both.json")
    try await withLiveFilesAsync {
      @Shared(.fileStorage(url)) var first = 0
      @Shared(.fileStorage(url)) var second = 0
      $first.withLock { $0 = 3 }
      #expect(second == 3)
      @Shared(.appStorage("theme")) var theme = "light"
      @SharedReader(.appStorage("theme")) var shown = "light"
      $theme.withLock { $0 = "dark" }
      #expect(shown == "dark")
      // Saved before the test's directory goes, rather than by the debounce after it.
      try await $first.save()
    }
  }

  @Test func aSettingChangedByAnotherProgramIsPickedUp() async throws {
    let settings = directory.appendingPathComponent("settings.json")
    try await withLiveFilesAsync {
      @Shared(.appStorage("volume")) var volume = 1
      $volume.withLock { $0 = 2 }
      try replaceFile(at: settings, with: Data(#"{"volume": 9}"#.utf8))
      let deadline = ContinuousClock.now.advanced(by: .seconds(20))
      while volume != 9, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(volume == 9)
    }
  }

  /// Every setting lives in one file, so another setting's change moves it too: that is no news
  /// for this setting's readers.
  @Test func anotherSettingsChangeTellsNotThisOnesReaders() async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let settings = directory.appendingPathComponent("settings.json")
    try Data(#"{"volume": 3}"#.utf8).write(to: settings)
    let storage = CountingStorage(pollInterval: .milliseconds(10))
    try await withLiveFilesAsync(storage) {
      @Shared(.appStorage("volume")) var volume = 0
      #expect(volume == 3)
      $volume.withLock { $0 = 7 }
      // Saved now, not by the debounce a second later, which on a slow run (the sanitizers)
      // landed between the other program's writes below and wrote 7 over its 9.
      try await $volume.save()
      let told = LockIsolated(0)
      withObservationTracking {
        _ = volume
      } onChange: {
        told.withValue { $0 += 1 }
      }
      let loads = storage.loads.value
      try replaceFile(at: settings, with: Data(#"{"theme": "dark", "volume": 7}"#.utf8))
      // The watch loads the moved file; its next poll starts once that load was handled.
      let deadline = ContinuousClock.now + .seconds(20)
      while storage.loads.value == loads, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      let polls = storage.signatures.value
      while storage.signatures.value == polls, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(storage.loads.value > loads)
      #expect(told.value == 0)
      // A change of this setting is news.
      try replaceFile(at: settings, with: Data(#"{"theme": "dark", "volume": 9}"#.utf8))
      while volume != 9, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      #expect(volume == 9)
      #expect(told.value == 1)
    }
  }

  @Test func aCorruptSettingsFileIsKeptAsideAndReported() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let settings = directory.appendingPathComponent("settings.json")
    try Data("not json at all".utf8).write(to: settings)
    withLiveFiles {
      @Shared(.appStorage("soundsOn")) var soundsOn = true
      let shared: Shared<Bool>? = $soundsOn
      #expect(shared?.wrappedValue == true)
      let loadError = String(describing: shared?.loadError)
      #expect(loadError.contains("settings.json.corrupt-"))
      let aside = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      #expect(aside.contains { $0.hasPrefix("settings.json.corrupt-") })
      // The setting goes on working and is written to a new file.
      shared?.withLock { $0 = false }
      let written = try? String(contentsOf: settings, encoding: .utf8)
      #expect(written?.contains(#""soundsOn" : false"#) == true)
    }
  }

  @Test func testsKeepFilesInMemory() throws {
    let url = directory.appendingPathComponent("never-written.json")
    @Dependency(\.defaultFileStorage) var storage
    let memory = try #require(storage as? InMemoryFileStorage)
    memory.write(Data(#"{"name":"Seeded","age":2}"#.utf8), to: url)
    @Shared(.fileStorage(url)) var user = User(name: "Default", age: 1)
    #expect(user.name == "Seeded")
    $user.withLock { $0.age = 3 }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(memory.data(at: url).map { String(decoding: $0, as: UTF8.self) }?.contains("3") == true)
  }
}

/// A test's storage over live files: what it does not watch goes to `live` as it is, and it
/// looks for other processes' writes every 10 ms unless it says otherwise. Writes reach it
/// through `FileStorage`'s default `saveSigned` and `updateSigned` (a save or update, then a
/// signature), as they reach a strategy written outside the library, unless it writes its own.
protocol OverLiveFiles: FileStorage {
  var live: LiveFileStorage { get }
}

extension OverLiveFiles {
  func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value {
    try live.load(type, from: url, initialValue: initialValue)
  }

  func update<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws {
    try live.update(type, at: url, initialValue: initialValue, change)
  }

  func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws {
    try live.save(value, to: url)
  }

  func signature(of url: URL) -> FileSignature? {
    live.signature(of: url)
  }

  var pollInterval: Duration? { .milliseconds(10) }
  var saveInterval: Duration? { live.saveInterval }
}

/// Live files whose loads of a changed file wait at `gate` once `armed`, as a load waits for
/// another process's lock, each telling `waiting` first; once open, the gate stays open. With
/// `readFirst`, a load reads the file and then waits, as a slow decode would.
final class GatedStorage: OverLiveFiles {
  let live = LiveFileStorage()
  let readFirst: Bool
  let armed = LockIsolated(false)
  let gate = DispatchSemaphore(value: 0)
  let waiting = DispatchSemaphore(value: 0)
  /// The signatures asked for: one a poll, one a load or write.
  let signatures = LockIsolated(0)

  init(readFirst: Bool = false) {
    self.readFirst = readFirst
  }

  func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value {
    let read = readFirst ? try live.load(type, from: url, initialValue: initialValue) : nil
    if armed.value {
      waiting.signal()
      gate.wait()
      gate.signal()
    }
    return try read ?? live.load(type, from: url, initialValue: initialValue)
  }

  func signature(of url: URL) -> FileSignature? {
    signatures.withValue { $0 += 1 }
    return live.signature(of: url)
  }
}

/// Live files where another process writes `follower`'s bytes, once, right after our next save
/// lands and before it returns.
final class FollowedStorage: OverLiveFiles {
  let live = LiveFileStorage()
  let follower = LockIsolated<Data?>(nil)

  func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws {
    _ = try saveSigned(value, to: url)
  }

  func saveSigned<Value: Codable & Sendable>(
    _ value: Value, to url: URL
  ) throws -> FileSignature? {
    let signature = try live.saveSigned(value, to: url)
    if let data = follower.withValue({ $0.take() }) {
      try replaceFile(at: url, with: data)
    }
    return signature
  }
}

/// Live storage that counts its writes, its loads and the signatures asked for (one a poll).
final class CountingStorage: OverLiveFiles {
  let live = LiveFileStorage()
  let saves = LockIsolated(0)
  /// Yields after each save.
  let (saved, savedContinuation) = AsyncStream.makeStream(of: Void.self)
  let loads = LockIsolated(0)
  let signatures = LockIsolated(0)
  let pollInterval: Duration?
  let saveInterval: Duration?

  init(pollInterval: Duration? = nil, saveInterval: Duration? = LiveFileStorage().saveInterval) {
    self.pollInterval = pollInterval
    self.saveInterval = saveInterval
  }

  func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value {
    loads.withValue { $0 += 1 }
    return try live.load(type, from: url, initialValue: initialValue)
  }

  func update<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws {
    saves.withValue { $0 += 1 }
    try live.update(type, at: url, initialValue: initialValue, change)
  }

  func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws {
    saves.withValue { $0 += 1 }
    try live.save(value, to: url)
    savedContinuation.yield()
  }

  func signature(of url: URL) -> FileSignature? {
    signatures.withValue { $0 += 1 }
    return live.signature(of: url)
  }

}

/// A strategy written outside the library: values kept in a dictionary the test owns, with
/// outside changes pushed to subscribers.
final class Vault: @unchecked Sendable {
  let values = LockIsolated<[String: Int]>([:])
  /// Every value the library wrote, in order.
  let saved = LockIsolated<[Int]>([])
  let subscribers = LockIsolated<[String: @Sendable (Int) -> Void]>([:])
  /// While set, every write fails, as on a full disk.
  let isFull = LockIsolated(false)

  struct Full: Error {}

  /// Changes a value as another program would.
  func externalWrite(_ value: Int, at key: String) {
    values.withValue { $0[key] = value }
    subscribers.value[key]?(value)
  }
}

struct VaultKey: SharedKey {
  let name: String
  let vault: Vault
  var saveInterval: Duration? = nil

  var id: String { name }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resume(with: .success(vault.values.value[name]))
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    if vault.isFull.value { return continuation.resume(throwing: Vault.Full()) }
    vault.saved.withValue { $0.append(value) }
    vault.values.withValue { $0[name] = value }
    continuation.resume()
  }

  func subscribe(
    context: LoadContext<Int>, subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    vault.subscribers.withValue { $0[name] = { subscriber.yield($0) } }
    return SharedSubscription { [vault, name] in
      vault.subscribers.withValue { $0[name] = nil }
    }
  }
}

/// A vault's key whose writes wait until `gate` opens, as a write waits for another process's
/// file lock, each telling `waiting` first; once open, the gate stays open.
struct GatedKey: SharedKey {
  let name: String
  let vault: Vault
  let gate: DispatchSemaphore
  let waiting: DispatchSemaphore

  var id: String { name }
  var saveInterval: Duration? { .milliseconds(1) }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    continuation.resumeReturningInitialValue()
  }

  func subscribe(
    context: LoadContext<Int>, subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    waiting.signal()
    gate.wait()
    gate.signal()
    vault.values.withValue { $0[name] = value }
    continuation.resume()
  }
}

@MainActor
struct SharedCustomKeyTests {
  @Test func aCustomStrategyLoadsSavesAndFollowsOutsideChanges() {
    let vault = Vault()
    vault.values.setValue(["score": 7])
    do {
      @Shared(VaultKey(name: "score", vault: vault)) var score = 0
      #expect(score == 7)
      $score.withLock { $0 += 1 }
      #expect(vault.values.value["score"] == 8)
      vault.externalWrite(20, at: "score")
      #expect(score == 20)
    }
    // Released with its last holder: the subscription is cancelled.
    #expect(vault.subscribers.value.isEmpty)
  }

  /// A score in a vault, written at once or at the end of an hour's interval, which `flush()`
  /// stands for: nothing waits.
  func withScore(
    savedEvery saveInterval: Duration? = .seconds(3600),
    _ body: (Vault, SharedReferences, Shared<Int>) async throws -> Void
  ) async rethrows {
    let vault = Vault()
    let references = SharedReferences()
    try await withDependencies {
      $0.sharedReferences = references
    } operation: {
      @Shared(VaultKey(name: "score", vault: vault, saveInterval: saveInterval)) var score = 0
      try await body(vault, references, $score)
    }
  }

  /// Writes at the end of their interval wait one at a time, on a thread of their own. They ran
  /// on the global queue, whose threads are the concurrency pool's on Linux: as many writes
  /// waiting for another process (a file's lock) as there are cores stopped every task until
  /// they ended. Counted, not timed with a probe task: the tests that run beside this one may
  /// hold the pool's threads themselves.
  @Test func writesWaitingAtTheEndOfTheirIntervalHoldOneThread() async throws {
    let vault = Vault()
    let gate = DispatchSemaphore(value: 0)
    let waiting = DispatchSemaphore(value: 0)
    let count = ProcessInfo.processInfo.activeProcessorCount + 1
    // Kept: a box whose references are gone writes at once, on the caller's thread.
    let references = SharedReferences()
    let scores = withDependencies {
      $0.sharedReferences = references
    } operation: {
      (0..<count).map { index in
        Shared(
          wrappedValue: 0, GatedKey(name: "\(index)", vault: vault, gate: gate, waiting: waiting))
      }
    }
    for score in scores { score.withLock { $0 = 1 } }
    // From a thread of its own, which opens the gate within seconds whatever happens, so that
    // writes holding every thread fail this test rather than hang it.
    let (firstStarted, waitingAtOnce) = await withCheckedContinuation { continuation in
      Thread {
        let firstStarted = waiting.wait(timeout: .now() + 5) == .success
        // Time for the other writes to start as well, were they on threads of their own.
        usleep(300_000)
        var waitingAtOnce = firstStarted ? 1 : 0
        while waiting.wait(timeout: .now()) == .success { waitingAtOnce += 1 }
        gate.signal()
        continuation.resume(returning: (firstStarted, waitingAtOnce))
      }.start()
    }
    #expect(firstStarted)
    #expect(waitingAtOnce == 1)
    // Nothing is lost: each write ends once the gate is open.
    let deadline = ContinuousClock.now + .seconds(5)
    while vault.values.value.count < count, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(
      vault.values.value == Dictionary(uniqueKeysWithValues: (0..<count).map { ("\($0)", 1) }))
    withExtendedLifetime((scores, references)) {}
  }

  /// A change waiting for its interval is written even when its value and the references that
  /// hold it are gone before the interval ends, as when a test or a window closes.
  @Test func aChangeWaitingForItsIntervalOutlivesItsReferences() async throws {
    let vault = Vault()
    do {
      let references = SharedReferences()
      withDependencies {
        $0.sharedReferences = references
      } operation: {
        @Shared(VaultKey(name: "score", vault: vault, saveInterval: .milliseconds(50))) var score =
          0
        $score.withLock { $0 = 6 }
      }
      #expect(vault.saved.value == [])
    }
    let deadline = ContinuousClock.now + .seconds(5)
    while vault.saved.value.isEmpty, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(vault.saved.value == [6])
  }

  /// Whether the interval ends (`flush()` stands for it) or `save()` asks for a write.
  enum Write: CaseIterable {
    case intervalEnd, save
  }

  @Test(arguments: Write.allCases)
  func aValueFromOutsideIsNotWrittenBack(when write: Write) async throws {
    try await withScore { vault, references, score in
      let write = {
        switch write {
        case .intervalEnd: references.flush()
        case .save: try await score.save()
        }
      }
      score.withLock { $0 = 1 }
      // Another program writes, and then again, before our interval ends.
      vault.externalWrite(20, at: "score")
      #expect(score.wrappedValue == 20)
      vault.values.withValue { $0["score"] = 21 }
      try await write()
      // Writing 20 back now would undo the outside 21: our change was replaced, nothing to write.
      #expect(vault.saved.value == [])
      #expect(vault.values.value["score"] == 21)
      score.withLock { $0 += 1 }
      try await write()
      #expect(vault.saved.value == [21])
    }
  }

  @Test func anExplicitSaveLeavesNothingForTheIntervalToWrite() async throws {
    try await withScore { vault, references, score in
      score.withLock { $0 = 5 }
      try await score.save()
      references.flush()
      #expect(vault.saved.value == [5])
      // `save()` writes even an unchanged value, as asked.
      try await score.save()
      #expect(vault.saved.value == [5, 5])
    }
  }

  @Test func aFailedWriteIsWrittenByTheNextFlush() async {
    // Written at once, no interval: the failed write leaves nothing pending but the change.
    await withScore(savedEvery: nil) { vault, references, score in
      vault.isFull.setValue(true)
      score.withLock { $0 = 3 }
      #expect(score.saveError is Vault.Full)
      vault.isFull.setValue(false)
      references.flush()
      #expect(vault.saved.value == [3])
      #expect(score.saveError == nil)
      references.flush()
      #expect(vault.saved.value == [3])
    }
  }

  @Test func aChangeNobodyHoldsAnyMoreIsFlushed() {
    let vault = Vault()
    let references = SharedReferences()
    withDependencies {
      $0.sharedReferences = references
    } operation: {
      do {
        @Shared(VaultKey(name: "score", vault: vault, saveInterval: .seconds(3600))) var score = 0
        $score.withLock { $0 = 4 }
      }
      references.flush()
    }
    #expect(vault.saved.value == [4])
  }

  @Test func aFailedWriteReplacedFromOutsideIsNotRetried() async {
    await withScore { vault, references, score in
      score.withLock { $0 = 3 }
      vault.isFull.setValue(true)
      references.flush()
      #expect(score.saveError is Vault.Full)
      vault.isFull.setValue(false)
      vault.externalWrite(9, at: "score")
      references.flush()
      #expect(vault.saved.value == [])
      #expect(score.wrappedValue == 9)
    }
  }

  @Test func concurrentChangesAreWrittenInTheirOrder() async {
    let vault = Vault()
    await withDependencies {
      $0.sharedReferences = SharedReferences()
    } operation: {
      @Shared(VaultKey(name: "score", vault: vault)) var score = 0
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask { [$score] in
            for _ in 0..<250 { $score.withLock { $0 += 1 } }
          }
        }
      }
      // Each write holds the newest value when it starts: the writes only go up, and the last
      // one is the final value, whichever thread made it.
      let saved = vault.saved.value
      let backwards = zip(saved, saved.dropFirst()).filter { $0 >= $1 }
      #expect(backwards.isEmpty)
      #expect(saved.last == 2_000)
      #expect(score == 2_000)
    }
  }
}

/// Replaces a file whole, as another process saving it does: written beside it, then renamed
/// into place. (Foundation's `.atomic` writes on Linux leave a directory in /tmp each time.)
func replaceFile(at url: URL, with data: Data) throws {
  let sibling = url.deletingLastPathComponent()
    .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
  try data.write(to: sibling)
  guard rename(sibling.path, url.path) == 0 else {
    try? FileManager.default.removeItem(at: sibling)
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
  }
}
