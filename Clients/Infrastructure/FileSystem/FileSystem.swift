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
}
