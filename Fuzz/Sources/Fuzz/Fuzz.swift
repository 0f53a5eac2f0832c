import Foundation
import FuzzTargets

/// The target `FUZZ_TARGET` names, looked up once.
private let target: (@Sendable (Data) -> Void)? = {
  let targets = FuzzTargets.all.merging(["cache-entry": cacheEntry]) { first, _ in first }
  let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
  guard let target = targets[name] else {
    let names = targets.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(names)\n".utf8))
    exit(64)
  }
  return target
}()

/// libFuzzer's entry point: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  target?(Data(bytes: bytes, count: count))
  return 0
}

/// libFuzzer's driver, for a `main` of our own.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The entry point a debug build of an executable target has: SwiftPM points `main` at
/// `<Target>_main` (so that tests can import executables), and libFuzzer's own `main` is then
/// never linked. This one hands over to libFuzzer's driver.
@_cdecl("Fuzz_main")
public func fuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  var argc = argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
  return runDriver(&argc, &argv) { bytes, count in fuzz(bytes, count) }
}
