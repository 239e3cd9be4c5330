/// inotify mask bits (Linux ABI, `<sys/inotify.h>`), spelled out so that event handling compiles and is
/// tested on every platform; only the syscalls themselves are Linux-only.
enum InotifyMask {
  static let modify: UInt32 = 0x0000_0002
  static let attrib: UInt32 = 0x0000_0004
  static let closeWrite: UInt32 = 0x0000_0008
  static let movedFrom: UInt32 = 0x0000_0040
  static let movedTo: UInt32 = 0x0000_0080
  static let create: UInt32 = 0x0000_0100
  static let delete: UInt32 = 0x0000_0200
  static let deleteSelf: UInt32 = 0x0000_0400
  static let moveSelf: UInt32 = 0x0000_0800
  static let unmount: UInt32 = 0x0000_2000
  static let queueOverflow: UInt32 = 0x0000_4000
  static let ignored: UInt32 = 0x0000_8000
  static let onlyDirectory: UInt32 = 0x0100_0000
  static let dontFollow: UInt32 = 0x0200_0000
  static let excludeUnlinked: UInt32 = 0x0400_0000
  static let isDirectory: UInt32 = 0x4000_0000

  /// What each directory watch asks for. IN_EXCL_UNLINK: no events for files already unlinked but still open;
  /// IN_ONLYDIR/IN_DONT_FOLLOW: a directory swapped for a file or symlink after listing is not watched.
  static let directoryWatch: UInt32 =
    create | delete | modify | closeWrite | movedFrom | movedTo | deleteSelf | moveSelf | attrib | onlyDirectory
    | dontFollow | excludeUnlinked
}

/// One `struct inotify_event`: `wd`, `mask`, `cookie`, then `len` bytes of NUL-padded name.
struct InotifyRecord: Sendable, Hashable {
  var wd: Int32
  var mask: UInt32
  var cookie: UInt32
  /// The entry's name inside the watched directory; "" for events about the directory itself.
  var name: String

  func has(_ bit: UInt32) -> Bool { mask & bit != 0 }

  /// The fixed part of a record: wd, mask, cookie, len.
  static let headerSize = 16

  /// Parses the records `read(2)` returned. The kernel only returns whole records; a truncated tail (which
  /// would be a bug) is ignored rather than read past the buffer.
  static func parse(_ bytes: UnsafeRawBufferPointer) -> [InotifyRecord] {
    var records: [InotifyRecord] = []
    var offset = 0
    while bytes.count - offset >= headerSize {
      let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
      let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
      let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
      let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
      let nameStart = offset + headerSize
      guard length <= bytes.count - nameStart else { break }
      let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameStart + length])
      let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
      records.append(InotifyRecord(wd: wd, mask: mask, cookie: cookie, name: name))
      offset = nameStart + length
    }
    return records
  }

  /// The bytes the kernel would write for this record, name padded with NULs to `paddedLength` (tests and
  /// injected reads).
  func encoded(paddedLength: Int? = nil) -> [UInt8] {
    let nameBytes = Array(name.utf8)
    let length = name.isEmpty ? 0 : max(paddedLength ?? ((nameBytes.count + 1 + 15) / 16 * 16), nameBytes.count + 1)
    var bytes: [UInt8] = []
    withUnsafeBytes(of: wd) { bytes += $0 }
    withUnsafeBytes(of: mask) { bytes += $0 }
    withUnsafeBytes(of: cookie) { bytes += $0 }
    withUnsafeBytes(of: UInt32(length)) { bytes += $0 }
    bytes += nameBytes
    bytes += [UInt8](repeating: 0, count: length - nameBytes.count)
    return bytes
  }
}
