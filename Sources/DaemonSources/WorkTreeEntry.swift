import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at a path, seen with `lstat`: a symbolic link is a link, never what it points to.
enum WorkTreeEntry: Equatable {
  case missing, directory, regularFile
  /// A symbolic link, FIFO, socket or device.
  case other

  static func at(_ path: String) -> WorkTreeEntry {
    var status = stat()
    guard lstat(path, &status) == 0 else { return .missing }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFREG: return .regularFile
    default: return .other
    }
  }

  static func isDirectory(_ path: String) -> Bool { at(path) == .directory }
  static func isRegularFile(_ path: String) -> Bool { at(path) == .regularFile }
  static func exists(_ path: String) -> Bool { at(path) != .missing }
}

/// The paths of a work tree a checkout writes or removes, for clearing what a branch could have put in their
/// way: libgit2 follows a symbolic link that stands where a checkout expects a folder, so a link committed or
/// left by a test (`Tests/LibTests` → the daemon's state) would have it write or delete files outside.
enum CheckoutPaths {
  /// Every path of `tracked` (the index: what the checkout may remove) and `target` (the commit: what it
  /// writes), with every folder above them, once each and parents first.
  static func touched(tracked: [String], target: [String]) -> [String] {
    var paths = Set<String>()
    for path in tracked + target {
      var prefix = Substring(path)
      while !prefix.isEmpty, paths.insert(String(prefix)).inserted {
        guard let slash = prefix.lastIndex(of: "/") else { break }
        prefix = prefix[..<slash]
      }
    }
    return paths.sorted { a, b in
      let (depthA, depthB) = (a.count { $0 == "/" }, b.count { $0 == "/" })
      return depthA != depthB ? depthA < depthB : a < b
    }
  }
}
