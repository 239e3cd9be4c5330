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

  /// The digest of `entries` (paths relative to the folder they are in), folder by folder.
  public static func of(_ entries: [String: String]) -> String? {
    var files: [(name: String, value: String)] = []
    var inner: [String: [String: String]] = [:]
    for (path, value) in entries {
      if let slash = path.firstIndex(of: "/") {
        inner[String(path[..<slash]), default: [:]][String(path[path.index(after: slash)...])] = value
      } else {
        files.append((path, value))
      }
    }
    let folders = inner.compactMap { name, entries in of(entries).map { (name: name, digest: $0) } }
    return combine(files: files, folders: folders)
  }
}
