import Affected
import RippleCore
import Testing

/// `FolderDigest.of` walks sorted paths once; the digest it gives is the folder-by-folder `combine` of nested
/// folders, as it was first written (kept here as the reference).
@Suite struct FolderDigestTests {
  private static func reference(_ entries: [String: String]) -> String? {
    var files: [(name: String, value: String)] = []
    var inner: [String: [String: String]] = [:]
    for (path, value) in entries {
      if let slash = path.firstIndex(of: "/") {
        inner[String(path[..<slash]), default: [:]][String(path[path.index(after: slash)...])] = value
      } else {
        files.append((path, value))
      }
    }
    let folders = inner.compactMap { name, entries in reference(entries).map { (name: name, digest: $0) } }
    return FolderDigest.combine(files: files, folders: folders)
  }

  @Test func theOnePassDigestIsTheFolderByFolderOne() {
    // Names that sort differently as whole paths and as names: `a` before `a.c` and `a b` as a name, after them
    // as a path prefix; a file beside a folder that shares its beginning; deep and non-ASCII folders. (Not two
    // spellings of one accented name: the reference merged such folders, by String's equality; the one pass
    // keeps them apart by their bytes, as git's trees do.)
    let names = ["a", "a.c", "a b", "a-", "b", "Ab", "é", "z.swift", "0"]
    var generator = SystemRandomNumberGenerator()
    for round in 0..<60 {
      var entries: [String: String] = [:]
      for index in 0..<(1 + round * 3) {
        let depth = Int.random(in: 0...3, using: &generator)
        let folders = (0..<depth).map { _ in names.randomElement(using: &generator)! }
        let file = names.randomElement(using: &generator)! + ".f"
        entries[(folders + [file]).joined(separator: "/")] = "100644:\(index)"
      }
      #expect(FolderDigest.of(entries) == Self.reference(entries), "\(entries.keys.sorted())")
    }
    let fixed = ["a/x": "1", "a.c": "2", "a b/y": "3", "a b": "4", "b/c/d/e": "5", "b/c.d": "6"]
    #expect(FolderDigest.of(fixed) == Self.reference(fixed))
    #expect(FolderDigest.of([:]) == nil)
    #expect(FolderDigest.of(["x": "1"]) != FolderDigest.of(["y/x": "1"]), "a file's folder is part of it")
  }
}
