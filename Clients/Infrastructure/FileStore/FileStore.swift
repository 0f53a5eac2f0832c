import FileSystem
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value kept durably in one JSON file: writes are atomic (temporary file, fsync, rename, fsync
/// of the directory), every read-modify-write holds an advisory lock (`flock`) so concurrent
/// processes never lose an update, and a file that cannot be decoded is moved aside and
/// reported, never overwritten.
public struct FileStore<Value: Codable & Sendable>: Sendable {
  /// The file.
  public let url: URL
  private let emptyValue: Value
  private let now: @Sendable () -> Date
  private let beforeRename: (@Sendable () throws -> Void)?
  /// Where the asynchronous reads and writes wait for the lock (see ``offPool(_:)``).
  private let queue: DispatchQueue

  /// A store for the file at `url`; a missing file reads as `emptyValue`.
  ///
  /// `beforeRename` runs after the new contents are on disk and before they replace the old
  /// file; tests use it to interrupt a write at the worst moment.
  public init(
    url: URL,
    emptyValue: Value,
    now: @escaping @Sendable () -> Date = Date.init,
    beforeRename: (@Sendable () throws -> Void)? = nil
  ) {
    self.url = url
    self.emptyValue = emptyValue
    self.now = now
    self.beforeRename = beforeRename
    self.queue = DispatchQueue(label: "composable.file-store.\(url.lastPathComponent)")
  }

  /// The stored value; `emptyValue` when there is no file yet.
  public func load() throws(FileStoreError) -> Value {
    try withLock { () throws(FileStoreError) in try read() }
  }

  /// Replaces the stored value. Returns the signature of the file written, as it was written:
  /// a stat afterwards could find another process's write in its place.
  @discardableResult
  public func save(_ value: Value) throws(FileStoreError) -> FileSignature? {
    try withLock { () throws(FileStoreError) in try write(value) }
  }

  /// Reads the latest stored value, changes it and writes it back, holding the lock throughout,
  /// so a change made by another process in between is never lost. Returns the new value.
  @discardableResult
  public func update(_ change: (inout Value) throws -> Void) throws(FileStoreError) -> Value {
    try updateSigned(change).value
  }

  /// ``update(_:)``, also returning the signature of the file written, as ``save(_:)`` does.
  public func updateSigned(
    _ change: (inout Value) throws -> Void
  ) throws(FileStoreError) -> (value: Value, signature: FileSignature?) {
    try withLock { () throws(FileStoreError) in
      var value = try read()
      do {
        try change(&value)
      } catch {
        throw .rejected(reason: "\(error)")
      }
      return (value, try write(value))
    }
  }

  // MARK: Reading and writing

  private func read() throws(FileStoreError) -> Value {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      return emptyValue
    } catch {
      if !FileManager.default.fileExists(atPath: url.path) { return emptyValue }
      throw .readFailed(path: url.path, reason: POSIXFile.describe(error))
    }
    do {
      return try Self.decoder.decode(Value.self, from: data)
    } catch {
      let aside = try moveAside()
      throw .corrupt(movedTo: aside, reason: Self.describe(error))
    }
  }

  private func write(_ value: Value) throws(FileStoreError) -> FileSignature? {
    let data: Data
    do {
      data = try Self.encoder.encode(value)
    } catch {
      throw .writeFailed(path: url.path, reason: "cannot encode: \(error)")
    }
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .writeFailed(path: temporary, reason: lastError()) }
    var failure = POSIXFile.writeAll(data, to: descriptor)
    if failure == nil, fsync(descriptor) != 0 { failure = lastError() }
    // The file keeps its inode and time through the rename; another writer's file, renamed
    // over it later, has an inode of its own.
    let signature = FileSignature(descriptor: descriptor)
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw .writeFailed(path: temporary, reason: failure)
    }
    do {
      try beforeRename?()
    } catch {
      unlink(temporary)
      throw .writeFailed(path: url.path, reason: "interrupted: \(error)")
    }
    guard rename(temporary, url.path) == 0 else {
      let reason = lastError()
      unlink(temporary)
      throw .writeFailed(path: url.path, reason: reason)
    }
    // The rename is durable only once the directory entry is on disk too.
    let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
    return signature
  }

  /// Moves an undecodable file to `<name>.corrupt-<UTC timestamp>` beside it, never replacing
  /// an earlier one.
  private func moveAside() throws(FileStoreError) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let base = url.path + ".corrupt-" + formatter.string(from: now())
    var candidate = base
    var attempt = 1
    while FileManager.default.fileExists(atPath: candidate) {
      candidate = "\(base)-\(attempt)"
      attempt += 1
    }
    // link + unlink rather than rename, so an existing file of that name is never replaced.
    guard link(url.path, candidate) == 0, unlink(url.path) == 0 else {
      throw .readFailed(
        path: url.path, reason: "cannot move the unreadable file aside: \(lastError())")
    }
    return candidate
  }

  // MARK: Locking

  /// Runs `body` holding an exclusive `flock` on `<file>.lock`. The lock lives on a file of its
  /// own because the data file is replaced on every write.
  private func withLock<R>(_ body: () throws(FileStoreError) -> R) throws(FileStoreError) -> R {
    let directory = url.deletingLastPathComponent()
    if !FileManager.default.fileExists(atPath: directory.path) {
      do {
        try FileManager.default.createDirectory(
          at: directory,
          withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700]
        )
      } catch {
        throw .writeFailed(path: directory.path, reason: POSIXFile.describe(error))
      }
    }
    let lockPath = url.path + ".lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .lockFailed(path: lockPath, reason: lastError()) }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw .lockFailed(path: lockPath, reason: lastError()) }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  private static func describe(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .dataCorrupted(let context)?: "not valid JSON (\(context.debugDescription))"
    case .keyNotFound(let key, _)?: "missing field \"\(key.stringValue)\""
    case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
      "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: ".")): "
        + context.debugDescription
    default: "\(error)"
    }
  }
}

/// Why a file store could not read or write; every case names the file.
public enum FileStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be decoded; it was moved to `movedTo`, untouched.
  case corrupt(movedTo: String, reason: String)
  /// The file exists but could not be read.
  case readFailed(path: String, reason: String)
  /// The new contents could not be written; the old file is intact.
  case writeFailed(path: String, reason: String)
  /// The lock file could not be opened or locked.
  case lockFailed(path: String, reason: String)
  /// The change itself failed, so nothing was written.
  case rejected(reason: String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .corrupt(let movedTo, let reason):
      "the data file could not be read (\(reason)); it was kept as \(movedTo)"
    case .readFailed(let path, let reason): "cannot read \(path): \(reason)"
    case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
    case .lockFailed(let path, let reason): "cannot lock \(path): \(reason)"
    case .rejected(let reason): "the change was not applied: \(reason)"
    }
  }
}

private func lastError() -> String {
  POSIXFile.lastError()
}

/// A client's own error type for stored data: its enum cases `corrupt(keptAt:)`,
/// `unreadable(_:)` and `unwritable(_:)` satisfy these requirements.
public protocol StoredDataError: Error {
  /// The file could not be decoded; it was kept aside at this path.
  static func corrupt(keptAt: String) -> Self
  /// The data could not be read.
  static func unreadable(_ reason: String) -> Self
  /// A change could not be saved.
  static func unwritable(_ reason: String) -> Self
}

extension FileStore {
  /// The stored value, with a failure reported as the client's error type; read off the
  /// concurrency pool (see ``offPool(_:)``).
  public func load<Failure: StoredDataError>(
    reportingAs _: Failure.Type
  ) async throws(Failure) -> Value {
    do {
      return try await offPool { () throws(FileStoreError) in try load() }
    } catch {
      throw error.reported(as: Failure.self)
    }
  }

  /// Applies a change under the lock, with a failure reported as the client's error type; off
  /// the concurrency pool, as `load`. A change that throws the client's error type fails with
  /// that error, and nothing is written.
  public func update<Failure: StoredDataError>(
    reportingAs _: Failure.Type,
    _ change: @escaping @Sendable (inout Value) throws -> Void
  ) async throws(Failure) {
    let refusal = Mutex<Failure?>(nil)
    do {
      _ = try await offPool { () throws(FileStoreError) in
        try update { value in
          do {
            try change(&value)
          } catch let error as Failure {
            refusal.withLock { $0 = error }
            throw error
          }
        }
      }
    } catch {
      if let refused = refusal.withLock({ $0 }) { throw refused }
      throw error.reported(as: Failure.self, whileSaving: true)
    }
  }

  /// Runs `body`, which waits for the file's lock, on this store's own queue. Another process
  /// may hold the lock for as long as it likes, and Swift's concurrency pool has one thread per
  /// core: a load and a save waiting on the pool held both threads of a two-core machine, and
  /// every other effect of the app waited with them.
  private func offPool<T: Sendable>(
    _ body: @escaping @Sendable () throws(FileStoreError) -> T
  ) async throws(FileStoreError) -> T {
    let result = await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: Result(catching: body)) }
    }
    return try result.get()
  }
}

extension FileStore {
  /// Tells each time the file changes after the stream starts, whoever changed it, checking its
  /// signature (inode, size, modification time) every `interval`: one `stat` a poll, no read.
  /// Our own writes are told too; a reader merges what it loads, so a second look is harmless.
  public func changes(every interval: Duration) -> AsyncStream<Void> {
    let path = url.path
    return AsyncStream { continuation in
      let poll = Task {
        var seen = FileSignature(path: path)
        while (try? await Task.sleep(for: interval)) != nil {
          let current = FileSignature(path: path)
          if current != seen {
            seen = current
            continuation.yield()
          }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in poll.cancel() }
    }
  }
}

extension FileStoreError {
  /// This failure as a client's error type: a corrupt file names where it was kept; a read
  /// failure is unreadable data; write failures and rejected changes are unsaved ones. A lock
  /// that could not be taken is unreadable data while loading, and an unsaved change while
  /// saving, where the person was told nothing about reading.
  public func reported<Failure: StoredDataError>(
    as _: Failure.Type, whileSaving: Bool = false
  ) -> Failure {
    switch self {
    case .corrupt(let movedTo, _): .corrupt(keptAt: movedTo)
    case .readFailed: .unreadable(description)
    case .lockFailed: whileSaving ? .unwritable(description) : .unreadable(description)
    case .writeFailed, .rejected: .unwritable(description)
    }
  }
}
