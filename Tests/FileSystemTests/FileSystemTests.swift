import FileSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

struct AppDirectoriesTests {
  @Test func xdgVariablesChooseTheDirectories() {
    let environment = [
      "XDG_DATA_HOME": "/xdg/data", "XDG_CACHE_HOME": "/xdg/cache",
      "XDG_CONFIG_HOME": "/xdg/config", "HOME": "/home/ada",
    ]
    #expect(AppDirectories.data(environment: environment).path == "/xdg/data/composable")
    #expect(AppDirectories.cache(environment: environment).path == "/xdg/cache/composable")
    #expect(AppDirectories.config(environment: environment).path == "/xdg/config/composable")
  }

  @Test func withoutThemTheHomeDirectoryIsUsed() {
    let environment = ["HOME": "/home/ada"]
    #expect(
      AppDirectories.data(environment: environment).path == "/home/ada/.local/share/composable")
    #expect(AppDirectories.cache(environment: environment).path == "/home/ada/.cache/composable")
    #expect(AppDirectories.config(environment: environment).path == "/home/ada/.config/composable")
  }

  @Test func relativeValuesAreIgnoredAsTheSpecificationSays() {
    let environment = ["XDG_DATA_HOME": "relative/data", "HOME": "/home/ada"]
    #expect(
      AppDirectories.data(environment: environment).path == "/home/ada/.local/share/composable")
  }
}

struct POSIXFileTests {
  @Test func writeAllWritesEveryByte() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("posix-\(UUID())")
    defer { try? FileManager.default.removeItem(at: url) }
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    let data = Data((0..<200_000).map { UInt8($0 % 251) })
    #expect(POSIXFile.writeAll(data, to: descriptor) == nil)
    close(descriptor)
    #expect(try Data(contentsOf: url) == data)
  }

  @Test func writeAllToAClosedDescriptorSaysWhy() {
    #expect(POSIXFile.writeAll(Data("x".utf8), to: -1) == String(cString: strerror(EBADF)))
  }
}
