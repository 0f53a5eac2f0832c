import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the app keeps its files, following the XDG base directory specification.
public enum AppDirectories {
  /// `$XDG_DATA_HOME/composable`, else `~/.local/share/composable`: todos, contacts.
  public static func data(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    resolve("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
  }

  /// `$XDG_CACHE_HOME/composable`, else `~/.cache/composable`: the compressed cache.
  public static func cache(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    resolve("XDG_CACHE_HOME", fallback: ".cache", environment: environment)
  }

  /// `$XDG_CONFIG_HOME/composable`, else `~/.config/composable`: settings.
  public static func config(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL
  {
    resolve("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
  }

  /// The specification ignores relative paths in these variables.
  private static func resolve(
    _ variable: String,
    fallback: String,
    environment: [String: String]
  ) -> URL {
    if let base = environment[variable], base.hasPrefix("/") {
      return URL(fileURLWithPath: base).appendingPathComponent("composable")
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return URL(fileURLWithPath: home).appendingPathComponent(fallback)
      .appendingPathComponent("composable")
  }
}

/// Small POSIX file operations the stores share.
public enum POSIXFile {
  /// Writes every byte of `data` to `descriptor`, retrying after interruptions; returns the
  /// error text on failure.
  public static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
    data.withUnsafeBytes { buffer -> String? in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return lastError()
        }
        offset += written
      }
      return nil
    }
  }

  /// The text of the last system error.
  public static func lastError() -> String {
    String(cString: strerror(errno))
  }

  /// Why a Foundation file operation failed, as the system says it ("Permission denied", "No
  /// space left on device"), instead of Foundation's "NSCocoaErrorDomain error 512". When
  /// Foundation keeps no reason, the file at `url`, if given, is asked (missing, a directory, not
  /// readable).
  public static func describe(_ error: any Error, at url: URL? = nil) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
    guard error.domain == NSCocoaErrorDomain else { return error.localizedDescription }
    switch CocoaError.Code(rawValue: error.code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
    case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
    case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
    case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
    case .fileWriteFileExists: return String(cString: strerror(EEXIST))
    case .fileReadTooLarge: return String(cString: strerror(EFBIG))
    case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "invalid file name"
    default: return url.flatMap(reasonItCannotBeRead) ?? "Foundation error \(error.code)"
    }
  }

  /// Why the file at `url` cannot be opened for reading, `nil` when it can.
  private static func reasonItCannotBeRead(_ url: URL) -> String? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      return String(cString: strerror(ENOENT))
    }
    if isDirectory.boolValue { return String(cString: strerror(EISDIR)) }
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return lastError() }
    close(descriptor)
    return nil
  }
}

/// What identifies one version of a file's contents: its inode, size and modification time. A
/// file replaced by rename gets the inode of the file renamed over it, so a write of the same
/// bytes still reads as a new version.
public struct FileSignature: Hashable, Sendable {
  let inode: UInt64
  let size: Int64
  let modified: Int64

  /// A signature of your own making, for a storage that is not a file system.
  public init(inode: UInt64, size: Int64, modified: Int64) {
    self.inode = inode
    self.size = size
    self.modified = modified
  }

  /// The signature of the file at `path` now; `nil` when there is none.
  public init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status)
  }

  /// The signature of the open file `descriptor`: for a file about to be renamed into place,
  /// the one it keeps there, known before any other writer can replace it.
  public init?(descriptor: Int32) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    self.init(status)
  }

  private init(_ status: stat) {
    self.init(
      inode: UInt64(status.st_ino),
      size: Int64(status.st_size),
      modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    )
  }
}
