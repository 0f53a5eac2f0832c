import Foundation
import FuzzTargets

/// The target `FUZZ_TARGET` names, looked up once.
nonisolated(unsafe) private let target: (@Sendable (Data) -> Void)? = {
  let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
  guard let target = FuzzTargets.all[name] else {
    let names = FuzzTargets.all.keys.sorted().joined(separator: ", ")
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
