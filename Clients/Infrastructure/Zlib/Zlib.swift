import CZlib
import Foundation

/// zlib, the system compression library, for Swift: deflate and inflate in zlib, gzip or raw
/// framing, streaming or in one call, and CRC-32.
public enum Zlib {
  /// The framing around compressed data.
  public enum Format: Sendable, Equatable {
    /// The zlib format (RFC 1950): a two-byte header and an Adler-32 trailer.
    case zlib
    /// The gzip format (RFC 1952), readable by `gzip -d`.
    case gzip
    /// A bare deflate stream (RFC 1951).
    case raw
    /// For decompression only: zlib or gzip, whichever the header says.
    case automatic

    var windowBits: Int32 {
      switch self {
      case .zlib: MAX_WBITS
      case .gzip: MAX_WBITS + 16
      case .raw: -MAX_WBITS
      case .automatic: MAX_WBITS + 32
      }
    }
  }

  /// A compression level from 0 (store only) to 9 (smallest output).
  public struct Level: Sendable, Equatable, Hashable {
    /// The level zlib uses.
    public let rawValue: Int32

    /// A level from 0 to 9; values outside are clamped.
    public init(_ value: Int) {
      rawValue = Int32(min(max(value, 0), 9))
    }

    /// zlib's default trade-off (level 6).
    public static let `default` = Level(6)
    /// The fastest compression (level 1).
    public static let fastest = Level(1)
    /// The smallest output (level 9).
    public static let smallest = Level(9)
    /// No compression, only framing (level 0).
    public static let none = Level(0)
  }

  /// Compresses `data` in one call.
  public static func compress(
    _ data: Data,
    format: Format = .zlib,
    level: Level = .default
  ) throws(ZlibError) -> Data {
    let deflater = try Deflater(format: format, level: level)
    var output = Data()
    output.reserveCapacity(Int(deflateBound(nil, uLong(data.count))) + 32)
    try deflater.compress(data, final: true) { output.append($0) }
    return output
  }

  /// Decompresses `data` in one call. `expectedSize` presizes the output when the caller knows
  /// it; `maximumSize` stops a hostile input from expanding without bound.
  public static func decompress(
    _ data: Data,
    format: Format = .automatic,
    expectedSize: Int? = nil,
    maximumSize: Int = .max
  ) throws(ZlibError) -> Data {
    let inflater = try Inflater(format: format)
    var output: Data
    var rest = data[...]
    if let expectedSize, expectedSize <= maximumSize {
      // Inflate straight into a buffer of the announced size: no intermediate chunks to copy.
      (output, rest) = try inflater.decompress(data, intoBufferOf: expectedSize)
    } else {
      output = Data()
      output.reserveCapacity(min(data.count * 4, maximumSize))
    }
    var tooLarge = output.count > maximumSize
    if !rest.isEmpty {
      try inflater.decompress(rest) { chunk in
        guard !tooLarge, output.count + chunk.count <= maximumSize else {
          tooLarge = true
          return
        }
        output.append(chunk)
      }
    }
    if tooLarge { throw .outputTooLarge(limit: maximumSize) }
    guard inflater.isFinished else { throw .truncatedInput }
    return output
  }

  /// The CRC-32 of `data`, continuing from `seed` to checksum data in parts.
  public static func crc32(_ data: some DataProtocol, seed: UInt32 = 0) -> UInt32 {
    var crc = uLong(seed)
    for region in data.regions {
      region.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        // zlib takes 32-bit lengths.
        while offset < buffer.count {
          let count = min(buffer.count - offset, Int(UInt32.max))
          crc = CZlib.crc32(
            crc, base.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(count))
          offset += count
        }
      }
    }
    return UInt32(truncatingIfNeeded: crc)
  }

  /// The version of the zlib library in use.
  public static var version: String {
    String(cString: zlibVersion())
  }
}

/// A zlib failure, from its return codes.
public enum ZlibError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The input is not valid compressed data (`Z_DATA_ERROR`).
  case dataError(String)
  /// zlib could not allocate memory (`Z_MEM_ERROR`).
  case memoryError
  /// A parameter or the stream state was invalid (`Z_STREAM_ERROR`).
  case streamError(String)
  /// The compressed data needs a preset dictionary (`Z_NEED_DICT`).
  case needsDictionary
  /// The library's version does not match the headers (`Z_VERSION_ERROR`).
  case versionMismatch
  /// The input ended before the compressed stream did.
  case truncatedInput
  /// Data continues after the end of the compressed stream.
  case trailingData
  /// Decompressed output would exceed the allowed size.
  case outputTooLarge(limit: Int)
  /// Any other return code.
  case unknown(code: Int32)

  init(code: Int32, message: UnsafePointer<CChar>?) {
    let text = message.map { String(cString: $0) } ?? "no message"
    switch code {
    case Z_DATA_ERROR: self = .dataError(text)
    case Z_MEM_ERROR: self = .memoryError
    case Z_STREAM_ERROR: self = .streamError(text)
    case Z_NEED_DICT: self = .needsDictionary
    case Z_VERSION_ERROR: self = .versionMismatch
    default: self = .unknown(code: code)
    }
  }

  /// A sentence for people.
  public var description: String {
    switch self {
    case .dataError(let message): "invalid compressed data (\(message))"
    case .memoryError: "zlib ran out of memory"
    case .streamError(let message): "zlib stream error (\(message))"
    case .needsDictionary: "compressed data needs a preset dictionary"
    case .versionMismatch: "zlib library version does not match its headers"
    case .truncatedInput: "compressed data ends early"
    case .trailingData: "unexpected data after the end of the compressed stream"
    case .outputTooLarge(let limit): "decompressed data exceeds \(limit) bytes"
    case .unknown(let code): "zlib error \(code)"
    }
  }
}

/// A zlib stream on the heap (zlib keeps a pointer back to it, so it must not move), and the
/// loop that feeds it input and drains its output in fixed-size chunks.
final class ZStream {
  let pointer: UnsafeMutablePointer<z_stream>
  private let end: (UnsafeMutablePointer<z_stream>) -> Int32
  private var buffer: [UInt8]

  /// What one call into zlib left to do.
  enum Step {
    /// Call again: there is more input or pending output.
    case more
    /// The operation is complete for now.
    case done
    /// zlib reported an error.
    case failed(ZlibError)
  }

  init(
    chunkSize: Int,
    initialize: (UnsafeMutablePointer<z_stream>) -> Int32,
    end: @escaping (UnsafeMutablePointer<z_stream>) -> Int32
  ) throws(ZlibError) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: z_stream())
    let code = initialize(pointer)
    guard code == Z_OK else {
      pointer.deallocate()
      throw ZlibError(code: code, message: nil)
    }
    self.end = end
    buffer = [UInt8](repeating: 0, count: chunkSize)
  }

  deinit {
    _ = end(pointer)
    pointer.deallocate()
  }

  /// Gives zlib `input` and calls `step` with a fresh output chunk until it is done, passing each
  /// produced chunk to `sink`.
  func process(
    _ input: UnsafeRawBufferPointer,
    into sink: (Data) throws -> Void,
    step: (UnsafeMutablePointer<z_stream>) -> Step
  ) -> ZlibError? {
    pointer.pointee.next_in = UnsafeMutablePointer(
      mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self)
    )
    pointer.pointee.avail_in = uInt(input.count)
    return buffer.withUnsafeMutableBytes { out -> ZlibError? in
      while true {
        pointer.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
        pointer.pointee.avail_out = uInt(out.count)
        let result = step(pointer)
        let produced = out.count - Int(pointer.pointee.avail_out)
        if produced > 0 {
          do { try sink(Data(out.prefix(produced))) } catch { return .streamError("\(error)") }
        }
        switch result {
        case .more: continue
        case .done: return nil
        case .failed(let error): return error
        }
      }
    }
  }
}

/// Compresses a stream of chunks, handing output to a sink as it is produced, so neither the
/// input nor the output has to be held whole.
public final class Deflater {
  private let stream: ZStream
  private var isFinished = false

  /// A compressor for the given framing and level.
  public init(format: Zlib.Format = .zlib, level: Zlib.Level = .default, chunkSize: Int = 64 * 1024)
    throws(ZlibError)
  {
    precondition(format != .automatic, "Choose a concrete format to compress")
    stream = try ZStream(
      chunkSize: chunkSize,
      initialize: {
        deflateInit2_(
          $0,
          level.rawValue,
          Z_DEFLATED,
          format.windowBits,
          8,
          Z_DEFAULT_STRATEGY,
          ZLIB_VERSION,
          Int32(MemoryLayout<z_stream>.size)
        )
      },
      end: { deflateEnd($0) }
    )
  }

  /// Compresses `input`; with `final`, also ends the stream. `sink` receives each output chunk.
  public func compress(
    _ input: some DataProtocol,
    final: Bool,
    into sink: (Data) throws -> Void
  ) throws(ZlibError) {
    precondition(!isFinished, "The stream has already been finished")
    let regions = Array(input.regions)
    for index in 0..<max(regions.count, 1) {
      let flush = final && index >= regions.count - 1 ? Z_FINISH : Z_NO_FLUSH
      let step = { (pointer: UnsafeMutablePointer<z_stream>) -> ZStream.Step in
        let code = deflate(pointer, flush)
        guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else {
          return .failed(ZlibError(code: code, message: pointer.pointee.msg))
        }
        if code == Z_STREAM_END { return .done }
        if flush != Z_FINISH, pointer.pointee.avail_in == 0, pointer.pointee.avail_out > 0 {
          return .done
        }
        return .more
      }
      let failure =
        regions.isEmpty
        ? stream.process(UnsafeRawBufferPointer(start: nil, count: 0), into: sink, step: step)
        : regions[index].withUnsafeBytes { stream.process($0, into: sink, step: step) }
      if let failure { throw failure }
    }
    if final { isFinished = true }
  }
}

/// Decompresses a stream of chunks, handing output to a sink as it is produced.
public final class Inflater {
  private let stream: ZStream
  /// Whether the end of the compressed stream has been reached.
  public private(set) var isFinished = false

  /// A decompressor for the given framing.
  public init(format: Zlib.Format = .automatic, chunkSize: Int = 64 * 1024) throws(ZlibError) {
    stream = try ZStream(
      chunkSize: chunkSize,
      initialize: {
        inflateInit2_($0, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
      },
      end: { inflateEnd($0) }
    )
  }

  /// Decompresses into one buffer of `size` bytes, returning what was produced and the input left
  /// over when the buffer filled before the stream ended.
  func decompress(_ input: Data, intoBufferOf size: Int) throws(ZlibError) -> (
    Data, Data.SubSequence
  ) {
    var output = Data(count: size)
    var failure: ZlibError?
    var consumed = 0
    let produced = input.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int in
      output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Int in
        let pointer = stream.pointer
        pointer.pointee.next_in = UnsafeMutablePointer(
          mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self)
        )
        pointer.pointee.avail_in = uInt(source.count)
        pointer.pointee.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
        pointer.pointee.avail_out = uInt(target.count)
        let code = inflate(pointer, Z_FINISH)
        consumed = source.count - Int(pointer.pointee.avail_in)
        switch code {
        case Z_STREAM_END:
          isFinished = true
          if pointer.pointee.avail_in > 0 { failure = .trailingData }
        case Z_OK, Z_BUF_ERROR:
          break
        case Z_NEED_DICT:
          failure = .needsDictionary
        default:
          failure = ZlibError(code: code, message: pointer.pointee.msg)
        }
        return target.count - Int(pointer.pointee.avail_out)
      }
    }
    if let failure { throw failure }
    output.removeSubrange(produced...)
    return (output, isFinished ? input[input.endIndex...] : input[(input.startIndex + consumed)...])
  }

  /// Decompresses the next part of the input. Data after the end of the compressed stream is an
  /// error, so two streams glued together are not silently half-read.
  public func decompress(_ input: some DataProtocol, into sink: (Data) throws -> Void)
    throws(ZlibError)
  {
    for region in input.regions where !region.isEmpty {
      guard !isFinished else { throw .trailingData }
      let failure = region.withUnsafeBytes { bytes in
        stream.process(bytes, into: sink) { pointer in
          let code = inflate(pointer, Z_NO_FLUSH)
          switch code {
          case Z_STREAM_END:
            isFinished = true
            return pointer.pointee.avail_in > 0 ? .failed(.trailingData) : .done
          case Z_NEED_DICT:
            return .failed(.needsDictionary)
          case Z_BUF_ERROR:
            return .done
          case Z_OK:
            let drained = pointer.pointee.avail_in == 0 && pointer.pointee.avail_out > 0
            return drained ? .done : .more
          default:
            return .failed(ZlibError(code: code, message: pointer.pointee.msg))
          }
        }
      }
      if let failure { throw failure }
    }
  }
}
