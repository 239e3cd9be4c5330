import Clibarchive
import Foundation
import RippleConfig
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Called before each file is written (tests inject failures such as a full disk).
public typealias WriteHook = @Sendable (_ path: String) throws -> Void

/// Extracts an archive with libarchive into an empty staging folder, refusing anything unsafe.
///
/// Refused: absolute paths, `..`, backslashes, device files, FIFOs and sockets, symlinks and hard links
/// whose target leaves the staging tree, names that collide by case or Unicode normalisation, and
/// more entries or expanded bytes than the limits (counted while reading, so a zip bomb that lies about
/// its sizes stops at the limit). Files get mode 0644 (0755 when executable in the archive), never
/// setuid. With `flatten`, each selected file is written under its base name. Symlinks and hard links are created after every file, so no write goes through a link.
struct ArchiveExtractor {
  var assetID: String
  var spec: ArchiveSpec
  var writeHook: WriteHook?

  private static let regular: UInt32 = 0o100000
  private static let directory: UInt32 = 0o040000
  private static let symlink: UInt32 = 0o120000
  private static let typeMask: UInt32 = 0o170000

  /// Returns the extracted files (relative paths). On error the caller deletes `staging`.
  func extract(_ archivePath: String, into staging: String) throws -> [String] {
    guard let archive = archive_read_new() else { throw InternalError("archive_read_new failed") }
    defer { archive_read_free(archive) }
    switch spec.format {
    case .zip: archive_read_support_format_zip(archive)
    case .tar: archive_read_support_format_tar(archive)
    case .tarGzip:
      archive_read_support_format_tar(archive)
      archive_read_support_filter_gzip(archive)
    }
    guard archive_read_open_filename(archive, archivePath, 1 << 16) == ARCHIVE_OK else {
      throw AssetsError.archiveUnreadable(asset: assetID, reason: message(archive))
    }

    var names = FileNameRegistry()
    var files: [String] = []
    var symlinks: [(path: String, target: String)] = []
    var hardlinks: [(path: String, target: String)] = []
    var includeHits = Set<Int>()
    // `flatten`: lowercased base name → the (stripped) entry installed under it, and entry → base name.
    var flatSources: [String: String] = [:]
    var flatNames: [String: String] = [:]
    var entryCount = 0
    var expanded: Int64 = 0
    var entry: OpaquePointer?

    while true {
      let status = archive_read_next_header(archive, &entry)
      if status == ARCHIVE_EOF { break }
      guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
        throw AssetsError.archiveUnreadable(asset: assetID, reason: message(archive))
      }
      entryCount += 1
      if entryCount > spec.maxEntries {
        throw AssetsError.archiveLimitExceeded(asset: assetID, limit: "\(spec.maxEntries) entries (maxEntries)")
      }
      let raw = Self.name(entry)
      var path: String
      switch EntryPolicy.path(raw, strip: spec.stripComponents) {
      case .reject(let reason): throw AssetsError.unsafeArchiveEntry(asset: assetID, entry: raw, reason: reason)
      case .skip: continue
      case .extract(let normalised): path = normalised
      }
      let type = UInt32(archive_entry_filetype(entry)) & Self.typeMask
      let hardlinkTarget = archive_entry_hardlink(entry).map { String(cString: $0) }
      if hardlinkTarget == nil && type == Self.directory { continue }
      if hardlinkTarget == nil && type != Self.regular && type != Self.symlink {
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: raw, reason: "not a regular file, folder or symlink (device, FIFO or socket)")
      }
      guard selected(path, hits: &includeHits) else { continue }
      if spec.flatten {
        let flat = path.split(separator: "/").last.map(String.init) ?? path
        if let earlier = flatSources[flat.lowercased()] {
          throw AssetsError.flattenCollision(asset: assetID, first: earlier, second: path)
        }
        flatSources[flat.lowercased()] = path
        flatNames[path] = flat
        path = flat
      }
      switch names.insert(path) {
      case nil: break
      // Compared by scalars: `==` equates NFC and NFD.
      case .sameName(let earlier) where earlier.unicodeScalars.elementsEqual(path.unicodeScalars):
        throw AssetsError.unsafeArchiveEntry(asset: assetID, entry: raw, reason: "appears twice in the archive")
      case .sameName(let earlier):
        throw AssetsError.nameCollision(asset: assetID, first: earlier, second: path)
      case .fileAndFolder(let earlier) where symlinks.contains(where: { $0.path == earlier }):
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: raw, reason: "goes through the symlink `\(earlier)`")
      case .fileAndFolder(let earlier):
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: raw, reason: "`\(earlier)` and `\(path)` need one name as both a file and a folder")
      }
      if let target = hardlinkTarget {
        guard case .extract(let resolved) = EntryPolicy.path(target, strip: spec.stripComponents) else {
          throw AssetsError.unsafeArchiveEntry(
            asset: assetID, entry: raw, reason: "hard link to `\(target)`, outside the extracted tree")
        }
        hardlinks.append((path, spec.flatten ? flatNames[resolved] ?? resolved : resolved))
      } else if type == Self.symlink {
        if spec.flatten {
          throw AssetsError.unsafeArchiveEntry(
            asset: assetID, entry: raw, reason: "a symlink cannot be installed flat (`archive.flatten`)")
        }
        let target = archive_entry_symlink(entry).map { String(cString: $0) } ?? ""
        guard EntryPolicy.symlinkStaysInside(entry: path, target: target) else {
          throw AssetsError.unsafeArchiveEntry(
            asset: assetID, entry: raw, reason: "symlink to `\(target)` leaves the extracted tree")
        }
        symlinks.append((path, target))
      } else {
        if archive_entry_size_is_set(entry) != 0, expanded + archive_entry_size(entry) > spec.maxExpandedBytes {
          throw limitExceeded()
        }
        let executable = (UInt32(archive_entry_perm(entry)) & 0o111) != 0
        try writeFile(archive, to: staging + "/" + path, executable: executable, expanded: &expanded)
        files.append(path)
      }
    }

    for (index, glob) in spec.include.enumerated() where !includeHits.contains(index) {
      throw AssetsError.includeMatchedNothing(asset: assetID, glob: glob.pattern)
    }
    try createLinks(symlinks: symlinks, hardlinks: hardlinks, files: Set(files), staging: staging)
    return (files + symlinks.map(\.path) + hardlinks.map(\.path)).sorted()
  }

  /// `include` (when given) and `exclude` on the stripped path; records which include globs matched.
  private func selected(_ path: String, hits: inout Set<Int>) -> Bool {
    if spec.exclude.contains(where: { $0.matches(path) }) { return false }
    guard !spec.include.isEmpty else { return true }
    let matching = spec.include.indices.filter { spec.include[$0].matches(path) }
    hits.formUnion(matching)
    return !matching.isEmpty
  }

  private func writeFile(_ archive: OpaquePointer, to path: String, executable: Bool, expanded: inout Int64) throws {
    try writeHook?(path)
    try FileIO.createDirectory(PathParts.parent(path))
    let mode: mode_t = executable ? 0o755 : 0o644
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard fd >= 0 else { throw FileIO.failure("create", path) }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
      if count == 0 { break }
      guard count > 0 else { throw AssetsError.archiveUnreadable(asset: assetID, reason: message(archive)) }
      expanded += Int64(count)
      if expanded > spec.maxExpandedBytes { throw limitExceeded() }
      try FileIO.writeAll(fd, Data(buffer[0..<count]), path: path)
    }
    guard fchmod(fd, mode) == 0 else { throw FileIO.failure("set the permissions of", path) }
  }

  /// Links last: hard links must name an extracted file; every symlink must resolve inside staging.
  private func createLinks(
    symlinks: [(path: String, target: String)], hardlinks: [(path: String, target: String)], files: Set<String>,
    staging: String
  ) throws {
    for link in symlinks + hardlinks {
      if let prefix = symlinks.first(where: { link.path.hasPrefix($0.path + "/") }) {
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: link.path, reason: "goes through the symlink `\(prefix.path)`")
      }
    }
    for file in files {
      if let prefix = symlinks.first(where: { file.hasPrefix($0.path + "/") }) {
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: file, reason: "goes through the symlink `\(prefix.path)`")
      }
    }
    for link in hardlinks {
      guard files.contains(link.target) else {
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: link.path, reason: "hard link to `\(link.target)`, which is not an extracted file")
      }
      try FileIO.createDirectory(PathParts.parent(staging + "/" + link.path))
      guard Foundation.link(staging + "/" + link.target, staging + "/" + link.path) == 0 else {
        throw FileIO.failure("link", staging + "/" + link.path)
      }
    }
    for link in symlinks {
      let path = staging + "/" + link.path
      try FileIO.createDirectory(PathParts.parent(path))
      guard Foundation.symlink(link.target, path) == 0 else { throw FileIO.failure("create the symlink", path) }
    }
    // Lexical checks cannot see chains (`a -> .`, `b -> a/..`): resolve for real.
    guard let root = PlanValidator.resolve(staging) else {
      throw FileIO.failure("resolve", staging)
    }
    for link in symlinks {
      let resolved = PlanValidator.resolve(staging + "/" + link.path)
      guard let resolved, resolved == root || resolved.hasPrefix(root + "/") else {
        throw AssetsError.unsafeArchiveEntry(
          asset: assetID, entry: link.path,
          reason: "symlink to `\(link.target)` resolves outside the extracted tree or to nothing")
      }
    }
  }

  private func limitExceeded() -> AssetsError {
    .archiveLimitExceeded(asset: assetID, limit: "\(spec.maxExpandedBytes) expanded bytes (maxExpandedBytes)")
  }

  private func message(_ archive: OpaquePointer) -> String {
    archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
  }

  private static func name(_ entry: OpaquePointer) -> String {
    if let utf8 = archive_entry_pathname_utf8(entry) { return String(cString: utf8) }
    return archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
  }
}
