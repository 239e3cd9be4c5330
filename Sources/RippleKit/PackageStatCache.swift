import Foundation
import RippleCore

/// The stat cache of one package in one checkout (issue 50): for each of its walked targets, a section with the
/// stamps and blob ids of the files its last walk found (`FileDigestCache.entryLines()`) and, when those are
/// exactly the files that walk counted, their digest (`FolderDigest.of`) and count. One file per package, so a
/// change of a base library reads a file per closure package, not one per closure target (4,000 at the bench's
/// size). Read only whole (`CheckedCacheFile`): one from another version, truncated or corrupt has no section,
/// and every file of its targets is hashed again.
struct PackageStatCache: Sendable {
  static let format = "ripple-file-digests-2"

  /// The digest of the files a walk counted (nil: none) and how many, saved only when those files were exactly
  /// the section's stamps: no link, submodule, unreadable or racily clean file, and no file a rule kept out.
  struct Summary: Sendable, Hashable {
    var digest: String?
    var count: Int
  }

  /// A target's section as read: its summary and its stamps' lines, parsed only when the target is walked.
  struct Section: Sendable {
    var summary: Summary?
    var lines: [ArraySlice<UInt8>] = []
  }

  /// A target's section as a walk left it, to write.
  struct Written: Sendable {
    var summary: Summary?
    var lines: [String]
  }

  let file: String?
  /// Target name → its section.
  private(set) var sections: [String: Section] = [:]

  init(file: String?) {
    self.file = file
    guard let file, let lines = CheckedCacheFile.lines(file, format: Self.format) else { return }
    var current: (name: String, section: Section)?
    for line in lines {
      if line.starts(with: [UInt8(ascii: "T"), UInt8(ascii: "\t")]) {
        if let current { sections[current.name] = current.section }
        current = Self.header(line)
      } else {
        current?.section.lines.append(line)
      }
    }
    if let current { sections[current.name] = current.section }
  }

  /// `T` and the target's name, then, for a summary, its files' digest (`-`: none) and their count; nil for a line
  /// that is not one (its section is then skipped: its files are hashed again).
  private static func header(_ line: ArraySlice<UInt8>) -> (name: String, section: Section)? {
    let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
    let name = String(decoding: fields[1], as: UTF8.self)
    if fields.count == 2 { return (name, Section()) }
    guard fields.count == 4, let count = CheckedCacheFile.number(fields[3]).flatMap(Int.init(exactly:)) else {
      return nil
    }
    let digest = String(decoding: fields[2], as: UTF8.self)
    guard digest == "-" || digest.utf8.count == 64 else { return nil }
    return (name, Section(summary: Summary(digest: digest == "-" ? nil : digest, count: count)))
  }

  private static func header(_ name: String, _ summary: Summary?) -> String {
    summary.map { "T\t\(name)\t\($0.digest ?? "-")\t\($0.count)" } ?? "T\t\(name)"
  }

  /// Writes the file again (atomically) with `changed` in place of those targets' sections, keeping the others
  /// of `targets` (a section of a target the package no longer has goes). A failure only costs a later re-read.
  func save(replacing changed: [String: Written], keeping targets: Set<String>) {
    guard let file else { return }
    var lines: [String] = []
    for name in Set(sections.keys).union(changed.keys).sorted()
    where targets.contains(name) && !name.contains("\t") && !name.contains("\n") {
      if let section = changed[name] {
        lines.append(Self.header(name, section.summary))
        lines += section.lines
      } else if let section = sections[name] {
        lines.append(Self.header(name, section.summary))
        lines += section.lines.map { String(decoding: $0, as: UTF8.self) }
      }
    }
    CheckedCacheFile.write(file, format: Self.format, lines: lines)
  }
}
