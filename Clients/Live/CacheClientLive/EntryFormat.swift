import Foundation
import Zlib

/// The on-disk layout of one cache entry: a fixed header, the full key, then the zlib stream.
///
/// ```
///  0  magic "CMPZ"             4 bytes
///  4  format version           UInt16 (1)
///  6  key length               UInt16
///  8  created                  Int64, milliseconds since 1970
/// 16  expires                  Int64, milliseconds since 1970; Int64.max = never
/// 24  uncompressed size        UInt64
/// 32  compressed size          UInt64
/// 40  CRC-32 of the stored (compressed) payload   UInt32
/// 44  CRC-32 of bytes 0..<44 and the key
/// 48  key (UTF-8), then the compressed payload
/// ```
/// All integers are little-endian. The header checksum catches a flipped byte in the dates or
/// sizes; the payload checksum covers the bytes on disk before they are inflated, and zlib's own
/// Adler-32 then verifies the inflated bytes, so the 64 KiB a page inflates to is not summed twice.
struct EntryHeader: Equatable {
  static let magic: [UInt8] = Array("CMPZ".utf8)
  static let version: UInt16 = 1
  static let size = 48
  /// Payloads larger than this are refused on read as corrupt, so a damaged size field cannot
  /// make the reader allocate without bound.
  static let maximumPayload: UInt64 = 1 << 30

  var key: String
  var created: Int64
  var expires: Int64
  var uncompressedSize: UInt64
  var compressedSize: UInt64
  var payloadCRC: UInt32

  var keyBytes: [UInt8] { Array(key.utf8) }
  var fileSize: Int { Self.size + keyBytes.count + Int(compressedSize) }

  func encoded() -> Data {
    var bytes = Self.magic
    append(Self.version, to: &bytes)
    append(UInt16(keyBytes.count), to: &bytes)
    append(UInt64(bitPattern: created), to: &bytes)
    append(UInt64(bitPattern: expires), to: &bytes)
    append(uncompressedSize, to: &bytes)
    append(compressedSize, to: &bytes)
    append(payloadCRC, to: &bytes)
    let headerCRC = Zlib.crc32(keyBytes, seed: Zlib.crc32(bytes))
    append(headerCRC, to: &bytes)
    bytes += keyBytes
    return Data(bytes)
  }

  /// Parses and checks the header at the start of `file`, or says why it cannot.
  static func decode(_ file: Data) -> Result<EntryHeader, EntryDefect> {
    let bytes = [UInt8](file.prefix(size))
    guard bytes.count == size else { return .failure(.truncated) }
    guard Array(bytes[0..<4]) == magic else { return .failure(.badMagic) }
    guard read(UInt16.self, bytes, at: 4) == version else { return .failure(.unsupportedVersion) }
    let keyLength = Int(read(UInt16.self, bytes, at: 6))
    guard file.count >= size + keyLength else { return .failure(.truncated) }
    let keyBytes = [UInt8](file.dropFirst(size).prefix(keyLength))
    let storedHeaderCRC = read(UInt32.self, bytes, at: 44)
    guard Zlib.crc32(keyBytes, seed: Zlib.crc32(bytes[0..<44])) == storedHeaderCRC else {
      return .failure(.headerChecksum)
    }
    guard let key = String(validating: keyBytes, as: UTF8.self) else {
      return .failure(.headerChecksum)
    }
    let header = EntryHeader(
      key: key,
      created: Int64(bitPattern: read(UInt64.self, bytes, at: 8)),
      expires: Int64(bitPattern: read(UInt64.self, bytes, at: 16)),
      uncompressedSize: read(UInt64.self, bytes, at: 24),
      compressedSize: read(UInt64.self, bytes, at: 32),
      payloadCRC: read(UInt32.self, bytes, at: 40)
    )
    guard header.uncompressedSize <= maximumPayload, header.compressedSize <= maximumPayload else {
      return .failure(.sizeMismatch)
    }
    guard file.count == header.fileSize else { return .failure(.sizeMismatch) }
    return .success(header)
  }

  private func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }

  private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
    var value = T.zero
    for index in (0..<MemoryLayout<T>.size).reversed() {
      value = value << 8 | T(bytes[offset + index])
    }
    return value
  }
}

/// Why an entry file was not usable; every one of these is a miss that removes the file.
enum EntryDefect: Error, Equatable {
  case truncated
  case badMagic
  case unsupportedVersion
  case headerChecksum
  case sizeMismatch
  case wrongKey
  case expired
  case payload(ZlibError)
  case payloadChecksum
}
