import Clibarchive
import Crypto
import Foundation
import PassRecords

/// A target's coverage as stored beside its pass record: its LCOV text (`LCOV.render`), gzip-compressed by
/// the libarchive Ripple already links (a raw stream, no archive around it), stored in the result store at
/// the SHA-256 of the compressed bytes. The record names that key, and a reader takes the bytes only when
/// they hash to it: a missing, cut or altered blob is detected, never read as coverage.
public enum CoverageBlob {
  /// A decompressed blob larger than this is refused (a hostile store's gzip bomb).
  public static let maximumTextBytes = 256 << 20

  /// The compressed bytes and their key.
  public static func encode(_ coverage: LineCoverage) throws(CoverageError) -> (key: RecordKey, data: Data) {
    let data = try gzip(Data(LCOV.render(coverage).utf8))
    return (key(of: data), data)
  }

  /// The coverage in `data`, which must hash to `key`.
  public static func decode(_ data: Data, key: RecordKey) throws(CoverageError) -> LineCoverage {
    let actual = Self.key(of: data)
    guard actual == key else { throw .blobDigestMismatch(expected: key.hex, actual: actual.hex) }
    let text = try gunzip(data)
    guard let string = String(data: text, encoding: .utf8) else { throw .blobUnreadable("not UTF-8 text") }
    return try LCOV.parse(string)
  }

  public static func key(of data: Data) -> RecordKey {
    RecordKey(hex: SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined())!
  }

  /// gzip of `input` (libarchive's raw filter); coverage maps are stored this way too.
  public static func gzip(_ input: Data) throws(CoverageError) -> Data {
    // gzip adds ~20 bytes of framing; incompressible input grows by a few bytes per 16 KiB block.
    let capacity = input.count + input.count / 100 + 4096
    // libarchive keeps both pointers and writes through them until the archive is freed (declared first, so
    // they outlive it).
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    let used = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    defer { used.deallocate() }
    used.initialize(to: 0)
    guard let archive = archive_write_new() else { throw .blobUnreadable("libarchive: archive_write_new failed") }
    defer { archive_write_free(archive) }
    guard archive_write_add_filter_gzip(archive) == ARCHIVE_OK, archive_write_set_format_raw(archive) == ARCHIVE_OK
    else { throw .blobUnreadable(message(archive)) }
    // Unblocked: no padding of the compressed stream to tape blocks.
    archive_write_set_bytes_per_block(archive, 0)
    archive_write_set_bytes_in_last_block(archive, 1)
    guard archive_write_open_memory(archive, buffer, capacity, used) == ARCHIVE_OK else {
      throw .blobUnreadable(message(archive))
    }
    guard let entry = archive_entry_new() else { throw .blobUnreadable("libarchive: archive_entry_new failed") }
    defer { archive_entry_free(entry) }
    archive_entry_set_filetype(entry, 0o100000)  // AE_IFREG, a macro Swift does not import
    archive_entry_set_size(entry, la_int64_t(input.count))
    guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw .blobUnreadable(message(archive)) }
    let written = input.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
    guard written == input.count, archive_write_close(archive) == ARCHIVE_OK else {
      throw .blobUnreadable(message(archive))
    }
    return Data(bytes: buffer, count: used.pointee)
  }

  /// The bytes a `gzip(_:)` stream holds, at most `maximumTextBytes` of them.
  public static func gunzip(_ input: Data) throws(CoverageError) -> Data {
    guard let archive = archive_read_new() else { throw .blobUnreadable("libarchive: archive_read_new failed") }
    defer { archive_read_free(archive) }
    archive_read_support_filter_gzip(archive)
    archive_read_support_format_raw(archive)
    let result = input.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<Data, CoverageError> in
      guard archive_read_open_memory(archive, bytes.baseAddress, bytes.count) == ARCHIVE_OK else {
        return .failure(.blobUnreadable(message(archive)))
      }
      var entry: OpaquePointer?
      guard archive_read_next_header(archive, &entry) == ARCHIVE_OK, archive_filter_count(archive) > 1 else {
        return .failure(.blobUnreadable("not a gzip stream"))
      }
      var out = Data()
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
        if count == 0 { break }
        guard count > 0 else { return .failure(.blobUnreadable(message(archive))) }
        out.append(contentsOf: chunk.prefix(count))
        guard out.count <= maximumTextBytes else { return .failure(.blobTooLarge(out.count)) }
      }
      return .success(out)
    }
    return try result.get()
  }

  private static func message(_ archive: OpaquePointer) -> String {
    "libarchive: " + (archive_error_string(archive).map { String(cString: $0) } ?? "unknown error")
  }
}
