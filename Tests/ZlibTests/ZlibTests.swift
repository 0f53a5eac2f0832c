import Foundation
import Testing
import Zlib

struct ZlibTests {
  /// Text-like data that compresses, plus bytes of every value.
  static let sample: Data = {
    var data = Data()
    for index in 0..<5_000 {
      data.append(
        contentsOf: Array(#"{"id":\#(index),"name":"order \#(index)","status":"shipped"}"#.utf8))
    }
    data.append(contentsOf: (0...255).map(UInt8.init))
    return data
  }()

  @Test(
    arguments: [Zlib.Format.zlib, .gzip, .raw], [Zlib.Level.none, .fastest, .default, .smallest])
  func roundTripIsByteExact(format: Zlib.Format, level: Zlib.Level) throws {
    let compressed = try Zlib.compress(Self.sample, format: format, level: level)
    let restored = try Zlib.decompress(compressed, format: format == .raw ? .raw : .automatic)
    #expect(restored == Self.sample)
    if level != .none { #expect(compressed.count < Self.sample.count / 4) }
  }

  @Test(arguments: [0, 1, 1000, 248_035, 248_036, 248_037, 1_000_000])
  func anExpectedSizeIsOnlyAHint(expectedSize: Int) throws {
    let compressed = try Zlib.compress(Self.sample)
    #expect(Self.sample.count == 248_036)
    #expect(try Zlib.decompress(compressed, expectedSize: expectedSize) == Self.sample)
  }

  @Test func emptyInputRoundTrips() throws {
    for format in [Zlib.Format.zlib, .gzip, .raw] {
      let compressed = try Zlib.compress(Data(), format: format)
      #expect(!compressed.isEmpty)
      #expect(try Zlib.decompress(compressed, format: format == .raw ? .raw : .automatic) == Data())
    }
  }

  @Test func streamingInSmallChunksMatchesOneShot() throws {
    let deflater = try Deflater(format: .gzip, chunkSize: 512)
    var compressed = Data()
    var offset = 0
    while offset < Self.sample.count {
      let end = min(offset + 1000, Self.sample.count)
      try deflater.compress(Self.sample[offset..<end], final: end == Self.sample.count) {
        compressed.append($0)
      }
      offset = end
    }
    let inflater = try Inflater(format: .gzip, chunkSize: 333)
    var restored = Data()
    for start in stride(from: 0, to: compressed.count, by: 97) {
      let chunk = compressed[start..<min(start + 97, compressed.count)]
      try inflater.decompress(chunk) { restored.append($0) }
    }
    #expect(inflater.isFinished)
    #expect(restored == Self.sample)
  }

  @Test func crc32MatchesTheStandardCheckValue() {
    #expect(Zlib.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
    #expect(Zlib.crc32(Data()) == 0)
    let whole = Zlib.crc32(Self.sample)
    let half = Self.sample.count / 2
    let parts = Zlib.crc32(Self.sample[half...], seed: Zlib.crc32(Self.sample[..<half]))
    #expect(whole == parts)
  }

  @Test func corruptDataIsADataError() throws {
    var compressed = try Zlib.compress(Self.sample)
    compressed[compressed.count / 2] ^= 0xFF
    compressed[compressed.count / 2 + 1] ^= 0xFF
    #expect {
      try Zlib.decompress(compressed)
    } throws: { error in
      guard case .dataError? = error as? ZlibError else { return false }
      return true
    }
    #expect(throws: ZlibError.self) { try Zlib.decompress(Data("not compressed at all".utf8)) }
  }

  @Test func truncatedDataIsReported() throws {
    let compressed = try Zlib.compress(Self.sample)
    #expect(throws: ZlibError.truncatedInput) {
      try Zlib.decompress(compressed.prefix(compressed.count - 10))
    }
  }

  @Test func trailingGarbageIsReported() throws {
    var compressed = try Zlib.compress(Data("hello".utf8))
    compressed.append(contentsOf: [1, 2, 3])
    #expect(throws: ZlibError.trailingData) { try Zlib.decompress(compressed) }
  }

  @Test func outputLimitStopsABomb() throws {
    let zeros = Data(count: 10_000_000)
    let bomb = try Zlib.compress(zeros, level: .smallest)
    #expect(bomb.count < 20_000)
    #expect(throws: ZlibError.outputTooLarge(limit: 1_000_000)) {
      try Zlib.decompress(bomb, maximumSize: 1_000_000)
    }
  }

  @Test func gzipWrittenHereIsReadByTheGzipTool() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("sample.gz")
    try Zlib.compress(Self.sample, format: .gzip).write(to: file)
    let result = try run("/usr/bin/env", ["gzip", "-d", "-c", file.path])
    #expect(result.status == 0)
    #expect(result.output == Self.sample)
  }

  @Test func gzipWrittenByTheGzipToolIsReadHere() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("sample")
    try Self.sample.write(to: file)
    let result = try run("/usr/bin/env", ["gzip", "-9", "-c", file.path])
    #expect(result.status == 0)
    #expect(try Zlib.decompress(result.output, format: .gzip) == Self.sample)
    #expect(try Zlib.decompress(result.output, format: .automatic) == Self.sample)
  }
}

func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("zlib-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  // The exit comes through the handler, not `waitUntilExit()`, which can miss it off the main
  // thread while other tests launch processes.
  let exited = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in exited.signal() }
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  exited.wait()
  return (process.terminationStatus, output)
}
