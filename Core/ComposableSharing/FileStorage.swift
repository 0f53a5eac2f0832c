import Dependencies
import FileStore
import FileSystem
import Foundation

/// Where `.fileStorage` and `.appStorage` keep their JSON files: the disk in the app, memory in
/// tests (so no test touches the user's files), or a strategy of your own.
public protocol FileStorage: Sendable {
  /// The value in the file at `url`, or `initialValue` when there is no file. A file that
  /// cannot be decoded is kept aside and reported (thrown), never overwritten.
  func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value

  /// Reads the file, changes its value and writes it back, as one step no other writer
  /// interleaves with.
  func update<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws

  /// Replaces the file's value, atomically.
  func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws

  /// ``save(_:to:)``, returning the signature of the file written, as it was written. The
  /// watch remembers it as its own write's; the default asks ``signature(of:)`` afterwards,
  /// which takes a write another process makes in between for ours.
  func saveSigned<Value: Codable & Sendable>(_ value: Value, to url: URL) throws -> FileSignature?

  /// ``update(_:at:initialValue:_:)``, returning the signature of the file written, as
  /// ``saveSigned(_:to:)`` does.
  func updateSigned<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws -> FileSignature?

  /// What identifies the file's current contents (`nil` when there is none), to notice writes
  /// made by other processes.
  func signature(of url: URL) -> FileSignature?

  /// How often to look for other processes' writes; `nil` never looks.
  var pollInterval: Duration? { get }

  /// How long to gather changes before writing them; `nil` writes each at once.
  var saveInterval: Duration? { get }
}

/// The identity of a file's contents: inode, size and modification time.
public typealias FileSignature = FileSystem.FileSignature

extension FileStorage {
  /// Saves, then asks for the file's signature.
  public func saveSigned<Value: Codable & Sendable>(
    _ value: Value, to url: URL
  ) throws -> FileSignature? {
    try save(value, to: url)
    return signature(of: url)
  }

  /// Updates, then asks for the file's signature.
  public func updateSigned<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws -> FileSignature? {
    try update(type, at: url, initialValue: initialValue, change)
    return signature(of: url)
  }
}

/// Files on disk, written with write-temporary-then-rename under an advisory lock.
public struct LiveFileStorage: FileStorage {
  /// Disk storage that looks for outside changes twice a second and writes at most once a second
  /// per file.
  public init() {}

  /// The decoded file, or `initialValue` when there is none.
  public func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value {
    try FileStore(url: url, emptyValue: initialValue).load()
  }

  /// Changes the file's value as one step.
  public func update<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws {
    _ = try updateSigned(type, at: url, initialValue: initialValue, change)
  }

  /// Replaces the file's value.
  public func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws {
    try saveSigned(value, to: url)
  }

  /// Replaces the file's value, and returns the signature the new file had before it was
  /// renamed into place.
  @discardableResult
  public func saveSigned<Value: Codable & Sendable>(
    _ value: Value, to url: URL
  ) throws -> FileSignature? {
    try FileStore(url: url, emptyValue: value).save(value)
  }

  /// Changes the file's value as one step, and returns the new file's signature.
  public func updateSigned<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws -> FileSignature? {
    try FileStore(url: url, emptyValue: initialValue).updateSigned { change(&$0) }.signature
  }

  /// The file's current signature.
  public func signature(of url: URL) -> FileSignature? {
    FileSignature(path: url.path)
  }

  // Polling, not inotify: a stat twice a second per shared file is cheap, works on every file
  // system (inotify misses writes made over NFS and by other containers), and needs no thread
  // blocked in a read of the inotify descriptor.
  /// Twice a second.
  public var pollInterval: Duration? { .milliseconds(500) }

  /// How long changes are gathered before a write.
  public var saveInterval: Duration? { .seconds(1) }
}

/// Files kept in memory: what tests use. Seed one with ``write(_:to:)``.
public final class InMemoryFileStorage: FileStorage {
  private struct Files {
    var contents: [URL: Data] = [:]
    /// Counts each file's writes, kept when a file is moved aside.
    var versions: [URL: Int64] = [:]
  }

  private let files = Locked(Files())

  /// No files.
  public init() {}

  /// The raw contents of a file, if there is one.
  public func data(at url: URL) -> Data? {
    files.withLock { $0.contents[url] }
  }

  /// Puts raw contents in a file, as another program would.
  public func write(_ data: Data, to url: URL) {
    store(data, at: url)
  }

  /// Writes the file and returns its new signature, in one step.
  @discardableResult
  private func store(_ data: Data, at url: URL) -> FileSignature {
    files.withLock { files in
      files.contents[url] = data
      files.versions[url, default: 0] += 1
      return FileSignature(inode: 0, size: 0, modified: files.versions[url]!)
    }
  }

  /// The names of every file.
  public var urls: [URL] {
    files.withLock { Array($0.contents.keys) }
  }

  /// The decoded file, or `initialValue` when there is none.
  public func load<Value: Codable & Sendable>(
    _ type: Value.Type, from url: URL, initialValue: Value
  ) throws -> Value {
    guard let data = data(at: url) else { return initialValue }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      let aside = url.appendingPathExtension("corrupt")
      files.withLock {
        $0.contents[aside] = data
        $0.contents[url] = nil
      }
      throw FileStoreError.corrupt(movedTo: aside.path, reason: "\(error)")
    }
  }

  /// Changes the file's value as one step.
  public func update<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws {
    _ = try updateSigned(type, at: url, initialValue: initialValue, change)
  }

  /// Changes the file's value as one step, and returns the signature of the file written.
  public func updateSigned<Value: Codable & Sendable>(
    _ type: Value.Type, at url: URL, initialValue: Value, _ change: (inout Value) -> Void
  ) throws -> FileSignature? {
    var value = try load(type, from: url, initialValue: initialValue)
    change(&value)
    return try saveSigned(value, to: url)
  }

  /// Replaces the file's value.
  public func save<Value: Codable & Sendable>(_ value: Value, to url: URL) throws {
    try saveSigned(value, to: url)
  }

  /// Replaces the file's value, and returns the signature of the file written.
  @discardableResult
  public func saveSigned<Value: Codable & Sendable>(
    _ value: Value, to url: URL
  ) throws -> FileSignature? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return store(try encoder.encode(value), at: url)
  }

  /// The file's current signature.
  public func signature(of url: URL) -> FileSignature? {
    guard let version = files.withLock({ $0.versions[url] }) else { return nil }
    return FileSignature(inode: 0, size: 0, modified: version)
  }

  /// How often outside writes are looked for.
  public var pollInterval: Duration? { nil }
  /// How long changes are gathered before a write.
  public var saveInterval: Duration? { nil }
}

private enum FileStorageKeyID: DependencyKey {
  static var liveValue: any FileStorage { LiveFileStorage() }
  static var testValue: any FileStorage { InMemoryFileStorage() }
}

extension DependencyValues {
  /// Where `.fileStorage` and `.appStorage` keep their files: the disk in the app, a fresh
  /// ``InMemoryFileStorage`` in each test.
  public var defaultFileStorage: any FileStorage {
    get { self[FileStorageKeyID.self] }
    set { self[FileStorageKeyID.self] = newValue }
  }
}

/// Watches a file for writes made by someone else, by polling its signature.
///
/// A poll and a write of our own never overlap: both hold the watch's lock, so our own write is
/// never taken for another process's. A value read while a write of ours waits for the lock, or
/// before one, is dropped: that write lands after it, and the last writer wins.
final class FileWatch: Sendable {
  let url: URL
  let storage: any FileStorage

  private struct Seen: Sendable {
    var signature: FileSignature?
    /// Counts our writes that are done, failed or not.
    var finished: UInt64 = 0
  }

  private let seen = Locked(Seen())
  /// Counts our writes begun, before they wait for `seen`'s lock.
  private let started = Locked<UInt64>(0)

  init(url: URL, storage: any FileStorage) {
    self.url = url
    self.storage = storage
  }

  /// Runs `body`, which reads the file, remembering the file as it was before: a write made
  /// while it reads is picked up by the next poll.
  func read<T>(_ body: () throws -> T) rethrows -> T {
    try seen.withLock { seen in
      seen.signature = storage.signature(of: url)
      return try body()
    }
  }

  /// Runs `body`, which writes the file and returns the signature of what it wrote, as one step
  /// no poll interleaves with, and remembers that signature as ours.
  func write(_ body: () throws -> FileSignature?) rethrows {
    started.withLock { $0 &+= 1 }
    try seen.withLock { seen in
      defer { seen.finished &+= 1 }
      seen.signature = try body()
    }
  }

  /// Whenever the file's signature moves, calls `load` (on a queue of its own) and hands what it
  /// returns to `subscriber`, with the holders' change mark from before the read. `load` returns
  /// `nil` for nothing to deliver.
  func start<Value: Sendable>(
    load: @escaping @Sendable () -> Value?,
    to subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    guard let interval = storage.pollInterval else { return SharedSubscription {} }
    // A queue of its own, not a global one: a changed file is loaded under its lock, which
    // another process may hold, and on Linux the global queues' threads are the ones Swift's
    // concurrency runs on, one per core.
    let queue = DispatchQueue(label: "composable.file-watch", qos: .utility)
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let period = DispatchTimeInterval(interval)
    timer.schedule(deadline: .now() + period, repeating: period)
    timer.setEventHandler { [weak self] in
      guard let self else { return }
      let mark = subscriber.changeMark()
      let loaded = self.seen.withLock { seen -> (value: Value, writes: UInt64)? in
        let writes = self.started.withLock { $0 }
        // A write of ours waits for the lock: whatever is read now, it lands over it. Nothing is
        // marked seen, so should that write fail, the next poll reads the file.
        guard writes == seen.finished else { return nil }
        let current = storage.signature(of: url)
        guard current != seen.signature else { return nil }
        seen.signature = current
        guard current != nil, let value = load() else { return nil }
        return (value, writes)
      }
      // Delivered outside the lock: the holders' observers run now, and one that saves would
      // wait for the lock while our own write, holding the value's write lock, waits for it.
      guard let loaded, self.started.withLock({ $0 }) == loaded.writes else { return }
      subscriber.yield(loaded.value, readSince: mark)
    }
    timer.resume()
    let source = UncheckedTimer(timer: timer)
    return SharedSubscription { source.timer.cancel() }
  }

  private struct UncheckedTimer: @unchecked Sendable {
    // Unchecked: a dispatch source is thread-safe to cancel.
    let timer: any DispatchSourceTimer
  }
}
