import Crypto
import RippleCore

/// A digest of a set of files (path → value) built folder by folder, as git builds trees, so that a folder's
/// part can be cached by its tree id and the whole computed again only along the folders that changed.
/// Equal sets give equal digests, whichever way they were computed.
public enum FolderDigest {
  /// A folder's digest from its own files (name → value) and its subfolders' digests (name → digest);
  /// nil when it holds no file at any depth.
  public static func combine(files: [(name: String, value: String)], folders: [(name: String, digest: String)])
    -> String?
  {
    guard !files.isEmpty || !folders.isEmpty else { return nil }
    var lines: [(name: [UInt8], line: [UInt8])] = []
    for (name, value) in files { lines.append((Array(name.utf8), Array("f\u{0}\(name)\u{0}\(value)\n".utf8))) }
    for (name, digest) in folders { lines.append((Array(name.utf8), Array("d\u{0}\(name)\u{0}\(digest)\n".utf8))) }
    lines.sort { $0.name.lexicographicallyPrecedes($1.name) }
    var hasher = SHA256()
    for (_, line) in lines { hasher.update(data: line) }
    return Hex.string(hasher.finalize())
  }

  /// The digest of `entries` (paths relative to the folder they are in), folder by folder: `combine` of each
  /// folder's files and subfolders, made in one pass over the paths sorted as that walk visits them (a
  /// change reaching every target digests 10⁵ paths; nested dictionaries of their parts cost most of a key).
  public static func of(_ entries: [String: String]) -> String? {
    guard !entries.isEmpty else { return nil }
    // `/` sorts before every other byte: a folder's paths come together, at its name's place among its
    // siblings (names are compared as bytes, as `combine` sorts them).
    let sorted = entries.map { (path: Array($0.key.utf8), value: $0.value) }.sorted { left, right in
      for (a, b) in zip(left.path, right.path) where a != b {
        return (a == UInt8(ascii: "/") ? 0 : a) < (b == UInt8(ascii: "/") ? 0 : b)
      }
      return left.path.count < right.path.count
    }
    // The folders open on the way to the current path: name and the lines hashed so far.
    var open: [(name: ArraySlice<UInt8>, hasher: SHA256)] = [([], SHA256())]
    func close() {
      let (name, hasher) = open.removeLast()
      open[open.count - 1].hasher.update(data: [UInt8(ascii: "d"), 0] + name + [0])
      open[open.count - 1].hasher.update(data: Array((Hex.string(hasher.finalize()) + "\n").utf8))
    }
    // One file's line, in a buffer used again for every file.
    var line: [UInt8] = []
    for (path, value) in sorted {
      let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      let folders = parts.dropLast()
      var shared = 0
      while shared < folders.count, shared + 1 < open.count, open[shared + 1].name.elementsEqual(folders[shared]) {
        shared += 1
      }
      while open.count > shared + 1 { close() }
      for folder in folders[shared...] { open.append((folder, SHA256())) }
      line.removeAll(keepingCapacity: true)
      line += [UInt8(ascii: "f"), 0]
      line += parts[parts.count - 1]
      line.append(0)
      line += value.utf8
      line.append(UInt8(ascii: "\n"))
      open[open.count - 1].hasher.update(data: line)
    }
    while open.count > 1 { close() }
    return Hex.string(open[0].hasher.finalize())
  }
}
