import Foundation
import Git

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes a private copy hold exactly the files a developer's working tree holds (as git sees them: tracked
/// files on disk plus untracked, non-ignored ones), so tests never run in — or write into — their checkout.
/// Only files whose size or modification time differ are copied; the copy keeps the source's times, so the
/// next sync after a save copies one file.
enum WorktreeSync {
  struct Summary: Sendable, Equatable {
    var copied: Int
    var removed: Int
  }

  static func mirror(from source: GitRepository, to copy: GitRepository) throws -> Summary {
    guard let from = source.workdir, let to = copy.workdir else {
      throw GitError.bareRepository(path: source.gitDirectory, operation: "copy the working tree")
    }
    let wanted = try source.workingTreeFiles()
    let wantedSet = Set(wanted)
    var summary = Summary(copied: 0, removed: 0)
    for path in wanted {
      let src = from + "/" + path
      let dst = to + "/" + path
      var a = stat()
      guard lstat(src, &a) == 0 else { continue }  // deleted since it was listed
      var b = stat()
      if lstat(dst, &b) == 0, a.st_size == b.st_size, modificationTime(a) == modificationTime(b),
        a.st_mode == b.st_mode
      {
        continue
      }
      try copyFile(src, dst, status: a)
      summary.copied += 1
    }
    for path in try copy.workingTreeFiles() where !wantedSet.contains(path) {
      if unlink(to + "/" + path) == 0 { summary.removed += 1 }
    }
    return summary
  }

  private static func modificationTime(_ s: stat) -> Int {
    #if canImport(Darwin)
      return s.st_mtimespec.tv_sec * 1_000_000_000 + s.st_mtimespec.tv_nsec
    #else
      return s.st_mtim.tv_sec * 1_000_000_000 + s.st_mtim.tv_nsec
    #endif
  }

  /// Copies through a temporary file and a rename (a half-written file is never seen), keeping mode and times.
  private static func copyFile(_ src: String, _ dst: String, status: stat) throws {
    let manager = FileManager.default
    try manager.createDirectory(
      atPath: (dst as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let temporary = dst + ".ripple-sync"
    try? manager.removeItem(atPath: temporary)
    if (status.st_mode & S_IFMT) == S_IFLNK {
      let target = try manager.destinationOfSymbolicLink(atPath: src)
      try manager.createSymbolicLink(atPath: temporary, withDestinationPath: target)
    } else {
      try manager.copyItem(atPath: src, toPath: temporary)
      chmod(temporary, status.st_mode & 0o7777)
      #if canImport(Darwin)
        var times = [status.st_atimespec, status.st_mtimespec]
      #else
        var times = [status.st_atim, status.st_mtim]
      #endif
      utimensat(AT_FDCWD, temporary, &times, 0)
    }
    guard rename(temporary, dst) == 0 else {
      let reason = String(cString: strerror(errno))
      try? manager.removeItem(atPath: temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: dst, NSLocalizedDescriptionKey: reason])
    }
  }
}
