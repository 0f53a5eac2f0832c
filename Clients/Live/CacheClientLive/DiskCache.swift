import CacheClient
import ConcurrencyExtras
import FileSystem
import Foundation
import Zlib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A zlib-compressed cache on disk: one file per entry, written atomically (temporary file, then
/// `rename`), so readers in any process never see half an entry.
///
/// A damaged, truncated, expired or foreign file is a miss and is removed; nothing a file holds
/// can crash the reader or make it return wrong bytes. Past a byte limit, the least recently used
/// entries are evicted (a hit refreshes an entry's modification time).
public final class DiskCache: Sendable {
  /// Where the cache lives and how it behaves.
  public struct Configuration: Sendable {
    /// The directory of the entries; created with mode 0700 when missing.
    public var directory: URL
    /// The most bytes the entries may take on disk before the oldest are evicted.
    public var maximumBytes: Int
    /// The zlib level payloads are compressed with.
    public var compressionLevel: Zlib.Level
    /// The clock that dates entries and decides expiry.
    public var now: @Sendable () -> Date

    /// A configuration; only the directory is required.
    public init(
      directory: URL,
      maximumBytes: Int = 64 * 1024 * 1024,
      compressionLevel: Zlib.Level = .default,
      now: @escaping @Sendable () -> Date = Date.init
    ) {
      self.directory = directory
      self.maximumBytes = maximumBytes
      self.compressionLevel = compressionLevel
      self.now = now
    }

    /// `$XDG_CACHE_HOME/composable`, else `~/.cache/composable`.
    public static func defaultDirectory(
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
      AppDirectories.cache(environment: environment)
    }
  }

  /// The configuration the cache was opened with.
  public let configuration: Configuration
  private let counters = LockIsolated(Counters())

  private struct Counters {
    var hits = 0
    var misses = 0
    /// What this instance believes the entries take on disk; rescanned when it passes the limit.
    var approximateBytes: Int?
  }

  static let entryExtension = "cz"
  static let temporaryPrefix = ".tmp-"

  /// Opens (and creates, if needed) a cache.
  public init(_ configuration: Configuration) throws(DiskCacheError) {
    self.configuration = configuration
    let path = configuration.directory.path
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw .notADirectory(path: path) }
    } else {
      do {
        try FileManager.default.createDirectory(
          atPath: path,
          withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700]
        )
      } catch {
        throw .cannotCreateDirectory(path: path, reason: POSIXFile.describe(error))
      }
    }
  }

  // MARK: Reading

  /// The bytes stored under `key`, or `nil` on a miss.
  public func data(forKey key: String) -> Data? {
    let path = filePath(forKey: key)
    switch readEntry(at: path, expectedKey: key) {
    case .success(let payload):
      counters.withValue { $0.hits += 1 }
      return payload
    case .failure:
      counters.withValue { $0.misses += 1 }
      return nil
    }
  }

  private enum ReadFailure: Error {
    case absent
    case defect(EntryDefect)
  }

  /// Reads and checks one entry file, removing it when it is defective.
  private func readEntry(
    at path: String,
    expectedKey: String?,
    touch: Bool = true
  ) -> Result<Data, ReadFailure> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(.absent) }
    defer { close(descriptor) }
    guard let file = readAll(descriptor) else { return .failure(.absent) }
    switch validate(file, expectedKey: expectedKey) {
    case .success(let payload):
      // A hit marks the entry recently used, for eviction.
      if touch { stamp(descriptor) }
      return .success(payload)
    case .failure(let defect):
      removeIfUnchanged(path, descriptor: descriptor)
      return .failure(.defect(defect))
    }
  }

  private func validate(_ file: Data, expectedKey: String?) -> Result<Data, EntryDefect> {
    let header: EntryHeader
    switch EntryHeader.decode(file) {
    case .success(let decoded): header = decoded
    case .failure(let defect): return .failure(defect)
    }
    if let expectedKey, header.key != expectedKey { return .failure(.wrongKey) }
    if header.expires <= milliseconds(configuration.now()) { return .failure(.expired) }
    let payloadStart = EntryHeader.size + header.keyBytes.count
    let stored = file[(file.startIndex + payloadStart)...]
    guard Zlib.crc32(stored) == header.payloadCRC else { return .failure(.payloadChecksum) }
    let payload: Data
    do {
      payload = try Zlib.decompress(
        stored,
        format: .zlib,
        expectedSize: Int(header.uncompressedSize),
        maximumSize: Int(header.uncompressedSize)
      )
    } catch {
      return .failure(.payload(error))
    }
    guard UInt64(payload.count) == header.uncompressedSize else { return .failure(.sizeMismatch) }
    return .success(payload)
  }

  // MARK: Writing

  /// Stores `data` under `key`, replacing any previous entry; `ttl` `nil` never expires.
  public func store(_ data: Data, forKey key: String, ttl: Duration? = nil) throws(DiskCacheError) {
    guard key.utf8.count <= Int(UInt16.max) else { throw .keyTooLong(length: key.utf8.count) }
    let compressed: Data
    do {
      compressed = try Zlib.compress(data, format: .zlib, level: configuration.compressionLevel)
    } catch {
      throw .compressionFailed(reason: error.description)
    }
    let now = configuration.now()
    let header = EntryHeader(
      key: key,
      created: milliseconds(now),
      expires: ttl.map { milliseconds(now.addingTimeInterval($0.timeInterval)) } ?? .max,
      uncompressedSize: UInt64(data.count),
      compressedSize: UInt64(compressed.count),
      payloadCRC: Zlib.crc32(compressed)
    )
    let path = filePath(forKey: key)
    let previousSize = fileSize(at: path) ?? 0
    try writeAtomically([header.encoded(), compressed], to: path)
    let added = header.fileSize - previousSize
    let needsEviction = counters.withValue { counters -> Bool in
      guard let bytes = counters.approximateBytes else { return true }
      counters.approximateBytes = bytes + added
      return bytes + added > configuration.maximumBytes
    }
    if needsEviction { evictIfNeeded() }
  }

  private func writeAtomically(_ parts: [Data], to path: String) throws(DiskCacheError) {
    let temporary =
      configuration.directory.appendingPathComponent(
        "\(Self.temporaryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
      ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .writeFailed(path: temporary, reason: errnoDescription()) }
    var failure: String?
    for part in parts where failure == nil {
      failure = POSIXFile.writeAll(part, to: descriptor)
    }
    stamp(descriptor)
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw .writeFailed(path: temporary, reason: failure)
    }
    // Replacing a file by rename makes ext4 flush the new data first (auto_da_alloc), which
    // triples the cost of a store. Removing the old entry first avoids that; a reader in between
    // sees a miss, never a partial entry.
    unlink(path)
    guard rename(temporary, path) == 0 else {
      let reason = errnoDescription()
      unlink(temporary)
      throw .writeFailed(path: path, reason: reason)
    }
  }

  // MARK: Removing

  /// Removes the entry for `key`, if any.
  public func remove(forKey key: String) throws(DiskCacheError) {
    let path = filePath(forKey: key)
    guard unlink(path) == 0 || errno == ENOENT else {
      throw .removeFailed(path: path, reason: errnoDescription())
    }
    counters.withValue { $0.approximateBytes = nil }
  }

  /// Removes every entry (and leftover temporary files); other files in the directory, even
  /// ones ending in `.cz`, are left.
  public func removeAll() throws(DiskCacheError) {
    for name in try directoryNames() where isOurs(name) {
      let path = configuration.directory.appendingPathComponent(name).path
      guard unlink(path) == 0 || errno == ENOENT else {
        throw .removeFailed(path: path, reason: errnoDescription())
      }
    }
    counters.withValue { $0.approximateBytes = 0 }
  }

  /// Removes expired and unreadable entries, and temporary files a crashed writer left behind
  /// more than an hour ago. Returns how many files were removed.
  @discardableResult
  public func prune() throws(DiskCacheError) -> Int {
    var removed = 0
    let staleBefore = Date().addingTimeInterval(-3600)
    for name in try directoryNames() {
      let path = configuration.directory.appendingPathComponent(name).path
      if Self.isTemporaryName(name) {
        if let modified = modificationDate(at: path), modified < staleBefore, unlink(path) == 0 {
          removed += 1
        }
      } else if Self.isEntryName(name) {
        if case .failure(.defect) = readEntry(at: path, expectedKey: nil, touch: false) {
          removed += 1
        }
      }
    }
    counters.withValue { $0.approximateBytes = nil }
    return removed
  }

  // MARK: Stats and eviction

  /// Entry counts and sizes on disk, with this instance's hits and misses.
  public func stats() throws(DiskCacheError) -> CacheStats {
    var stats = counters.withValue {
      CacheStats(entries: 0, bytesOnDisk: 0, bytesUncompressed: 0, hits: $0.hits, misses: $0.misses)
    }
    for entry in try scanEntries() {
      stats.entries += 1
      stats.bytesOnDisk += entry.size
      stats.bytesUncompressed += entry.uncompressedSize
    }
    return stats
  }

  private struct ScannedEntry {
    let path: String
    let size: Int
    let modified: timespec
    let uncompressedSize: Int
  }

  private func scanEntries() throws(DiskCacheError) -> [ScannedEntry] {
    var entries: [ScannedEntry] = []
    for name in try directoryNames() where Self.isEntryName(name) {
      let path = configuration.directory.appendingPathComponent(name).path
      var info = stat()
      guard stat(path, &info) == 0 else { continue }
      entries.append(
        ScannedEntry(
          path: path,
          size: Int(info.st_size),
          modified: info.st_mtim,
          uncompressedSize: uncompressedSize(at: path) ?? 0
        )
      )
    }
    return entries
  }

  /// Evicts least recently used entries until the cache fits in `maximumBytes`.
  private func evictIfNeeded() {
    guard var entries = try? scanEntries() else { return }
    var total = entries.reduce(0) { $0 + $1.size }
    if total > configuration.maximumBytes {
      entries.sort {
        ($0.modified.tv_sec, $0.modified.tv_nsec) < ($1.modified.tv_sec, $1.modified.tv_nsec)
      }
      for entry in entries where total > configuration.maximumBytes {
        if unlink(entry.path) == 0 { total -= entry.size }
      }
    }
    let measured = total
    counters.withValue { $0.approximateBytes = measured }
  }

  // MARK: Files

  /// The file of a key: a stable 64-bit FNV-1a hash of its UTF-8 bytes, so every process and
  /// every run agree (Swift's `Hasher` is seeded per process).
  func filePath(forKey key: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let name = String(hash, radix: 16)
    let padded = String(repeating: "0", count: 16 - name.count) + name
    return configuration.directory.appendingPathComponent("\(padded).\(Self.entryExtension)").path
  }

  /// Whether a file in the directory is one the cache writes: an entry, or a temporary file of a
  /// write. Everything else (another program's `other.cz`, say) is never read, evicted or removed.
  private func isOurs(_ name: String) -> Bool {
    Self.isEntryName(name) || Self.isTemporaryName(name)
  }

  /// An entry's name: 16 lowercase hexadecimal digits, as `filePath(forKey:)` makes them.
  static func isEntryName(_ name: String) -> Bool {
    let stem = name.utf8.dropLast(entryExtension.utf8.count + 1)
    return name.hasSuffix(".\(entryExtension)") && stem.count == 16
      && stem.allSatisfy {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
      }
  }

  /// A temporary file's name: the prefix, the writer's process id, a dash and a random number.
  static func isTemporaryName(_ name: String) -> Bool {
    guard name.hasPrefix(temporaryPrefix) else { return false }
    let parts = name.dropFirst(temporaryPrefix.count).split(
      separator: "-", omittingEmptySubsequences: false)
    return parts.count == 2
      && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
  }

  private func directoryNames() throws(DiskCacheError) -> [String] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: configuration.directory.path)
    } catch {
      throw .cannotReadDirectory(
        path: configuration.directory.path,
        reason: POSIXFile.describe(error)
      )
    }
  }

  private func readAll(_ descriptor: Int32) -> Data? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    let size = Int(info.st_size)
    // A file larger than any entry can be is damage: read only enough to see that it is.
    let limit = min(size, Int(EntryHeader.maximumPayload) + EntryHeader.size + 65_536)
    var data = Data(count: limit)
    let read = data.withUnsafeMutableBytes { buffer -> Int in
      var offset = 0
      while offset < buffer.count {
        let count = pread(
          descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
        if count < 0 {
          if errno == EINTR { continue }
          return -1
        }
        if count == 0 { break }
        offset += count
      }
      return offset
    }
    guard read >= 0 else { return nil }
    if read < limit { data.removeSubrange(read...) }
    return data
  }

  private func uncompressedSize(at path: String) -> Int? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let start = try? handle.read(upToCount: EntryHeader.size), start.count == EntryHeader.size
    else { return nil }
    let size = start.dropFirst(24).prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return size <= EntryHeader.maximumPayload ? Int(size) : nil
  }

  /// Removes a defective file, unless another writer has already replaced it with a new one.
  private func removeIfUnchanged(_ path: String, descriptor: Int32) {
    var opened = stat()
    var current = stat()
    guard fstat(descriptor, &opened) == 0, stat(path, &current) == 0,
      opened.st_ino == current.st_ino, opened.st_dev == current.st_dev
    else { return }
    unlink(path)
  }

  /// Sets a file's modification time from the cache's clock rather than the file system's, whose
  /// coarse ticks would leave entries written in quick succession unordered.
  private func stamp(_ descriptor: Int32) {
    let now = configuration.now().timeIntervalSince1970
    let seconds = now.rounded(.down)
    let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((now - seconds) * 1e9))
    let times = [time, time]
    _ = times.withUnsafeBufferPointer { futimens(descriptor, $0.baseAddress) }
  }

  private func fileSize(at path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
  }

  private func modificationDate(at path: String) -> Date? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
  }
}

/// Why the disk cache could not do what was asked. Reads never fail: a bad entry is a miss.
public enum DiskCacheError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The cache path exists and is not a directory.
  case notADirectory(path: String)
  /// The cache directory could not be created.
  case cannotCreateDirectory(path: String, reason: String)
  /// The cache directory could not be listed.
  case cannotReadDirectory(path: String, reason: String)
  /// An entry could not be written.
  case writeFailed(path: String, reason: String)
  /// An entry could not be removed.
  case removeFailed(path: String, reason: String)
  /// The key is longer than the 65,535 bytes an entry header can hold.
  case keyTooLong(length: Int)
  /// zlib refused to compress the payload.
  case compressionFailed(reason: String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .notADirectory(let path): "cache path \(path) is not a directory"
    case .cannotCreateDirectory(let path, let reason):
      "cannot create cache directory \(path): \(reason)"
    case .cannotReadDirectory(let path, let reason):
      "cannot read cache directory \(path): \(reason)"
    case .writeFailed(let path, let reason): "cannot write cache entry \(path): \(reason)"
    case .removeFailed(let path, let reason): "cannot remove cache entry \(path): \(reason)"
    case .keyTooLong(let length): "cache key of \(length) bytes is longer than 65535"
    case .compressionFailed(let reason): "cannot compress cache entry: \(reason)"
    }
  }
}

func milliseconds(_ date: Date) -> Int64 {
  Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
}

func errnoDescription() -> String {
  POSIXFile.lastError()
}
