import Foundation

/// The part of REAPI's `ActionResult` (build/bazel/remote/execution/v2/remote_execution.proto) a pass record
/// needs, in protobuf's wire format, by hand:
///
///     message ActionResult { repeated OutputFile output_files = 2; … }
///     message OutputFile   { string path = 1; Digest digest = 2; … }
///     message Digest       { string hash = 1; int64 size_bytes = 2; }
///
/// bazel-remote validates `/ac/` entries as ActionResults (and that the blobs they name are in its CAS), so a
/// record's `/ac/` entry is one output file, `ripple-pass-record.json`, whose digest names the record in `/cas/`.
/// Decoding skips the fields it does not know, as protobuf readers do.
enum ActionResultCodec {
  struct Digest: Sendable, Equatable {
    var hash: String
    var sizeBytes: Int64
  }

  struct OutputFile: Sendable, Equatable {
    var path: String
    var digest: Digest
  }

  static func encode(_ files: [OutputFile]) -> Data {
    var result = WireWriter()
    for file in files {
      var digest = WireWriter()
      digest.bytes(field: 1, Data(file.digest.hash.utf8))
      if file.digest.sizeBytes != 0 { digest.varint(field: 2, UInt64(bitPattern: file.digest.sizeBytes)) }
      var output = WireWriter()
      output.bytes(field: 1, Data(file.path.utf8))
      output.bytes(field: 2, digest.data)
      result.bytes(field: 2, output.data)
    }
    return result.data
  }

  /// The output files of an ActionResult; nil when `data` is not protobuf or a field has the wrong type.
  static func decode(_ data: Data) -> [OutputFile]? {
    var files: [OutputFile] = []
    let ok = WireReader.fields(data) { number, value in
      guard number == 2 else { return true }
      guard case .bytes(let message) = value, let file = outputFile(message) else { return false }
      files.append(file)
      return true
    }
    return ok ? files : nil
  }

  private static func outputFile(_ data: Data) -> OutputFile? {
    var path = ""
    var digest: Digest?
    let ok = WireReader.fields(data) { number, value in
      switch (number, value) {
      case (1, .bytes(let text)):
        guard let string = String(data: text, encoding: .utf8) else { return false }
        path = string
      case (2, .bytes(let message)):
        guard let parsed = Self.digest(message) else { return false }
        digest = parsed
      case (1, _), (2, _): return false
      default: break
      }
      return true
    }
    guard ok, let digest else { return nil }
    return OutputFile(path: path, digest: digest)
  }

  private static func digest(_ data: Data) -> Digest? {
    var hash = ""
    var size: Int64 = 0
    let ok = WireReader.fields(data) { number, value in
      switch (number, value) {
      case (1, .bytes(let text)):
        guard let string = String(data: text, encoding: .utf8) else { return false }
        hash = string
      case (2, .varint(let number)): size = Int64(bitPattern: number)
      case (1, _), (2, _): return false
      default: break
      }
      return true
    }
    return ok ? Digest(hash: hash, sizeBytes: size) : nil
  }
}

/// Protobuf's wire format, the two types the codec writes: varints and length-delimited bytes.
struct WireWriter {
  var data = Data()

  mutating func varint(field: Int, _ value: UInt64) {
    raw(UInt64(field << 3))
    raw(value)
  }

  mutating func bytes(field: Int, _ value: Data) {
    raw(UInt64(field << 3 | 2))
    raw(UInt64(value.count))
    data.append(value)
  }

  private mutating func raw(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      data.append(UInt8(rest & 0x7f) | 0x80)
      rest >>= 7
    }
    data.append(UInt8(rest))
  }
}

/// Reads a message's fields in order; every wire type but the deprecated groups is read (or skipped).
enum WireReader {
  enum Value {
    case varint(UInt64)
    case bytes(Data)
    case fixed
  }

  /// Calls `visit` with each field; false when the data is malformed or `visit` returned false.
  static func fields(_ data: Data, _ visit: (Int, Value) -> Bool) -> Bool {
    let bytes = [UInt8](data)
    var index = 0
    func varint() -> UInt64? {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while index < bytes.count, shift < 64 {
        let byte = bytes[index]
        index += 1
        result |= UInt64(byte & 0x7f) << shift
        if byte & 0x80 == 0 { return result }
        shift += 7
      }
      return nil
    }
    while index < bytes.count {
      guard let tag = varint(), tag >> 3 > 0, tag >> 3 < 1 << 29 else { return false }
      let number = Int(tag >> 3)
      let value: Value
      switch tag & 7 {
      case 0:
        guard let number = varint() else { return false }
        value = .varint(number)
      case 1, 5:
        let width = tag & 7 == 1 ? 8 : 4
        guard bytes.count - index >= width else { return false }
        index += width
        value = .fixed
      case 2:
        guard let length = varint(), length <= UInt64(bytes.count - index) else { return false }
        value = .bytes(Data(bytes[index..<index + Int(length)]))
        index += Int(length)
      default:
        return false
      }
      guard visit(number, value) else { return false }
    }
    return true
  }
}
