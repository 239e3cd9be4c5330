import ArgumentParser
import Foundation
import RippleKit

/// An age on the command line: a whole number and a unit, `90s`, `45m`, `12h`, `30d`.
struct CacheAge: ExpressibleByArgument {
  var seconds: TimeInterval

  init?(argument: String) {
    let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
    guard let unit = argument.last.flatMap({ units[$0] }), let count = Int(argument.dropLast()), count >= 0 else {
      return nil
    }
    seconds = TimeInterval(count) * unit
  }
}

struct CachePruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract:
      "Remove manifest and key cache files last used longer ago than --older-than (default 30d), or --all.",
    discussion: """
      Always safe: a removed entry is evaluated again when next needed. The stat caches and folder digests \
      pass-record keys keep beside the manifests are pruned too (a read marks them used).
      """
  )

  @Option(
    help: ArgumentHelp("Remove files last written or read longer ago than this (90s, 45m, 12h, 30d).", valueName: "AGE")
  )
  var olderThan: CacheAge?

  @Flag(help: "Remove every file of the cache.")
  var all = false

  func validate() throws {
    if all && olderThan != nil { throw ValidationError("--all and --older-than exclude each other.") }
  }

  func run() throws {
    let services = RippleServices.live
    let age = all ? nil : (olderThan?.seconds ?? 30 * 86400)
    let removed = try CacheJob.prune(olderThan: age, services: services)
    let folders = [CacheJob.directory(services: services)] + CacheJob.keyCacheDirectories(services: services)
    print(
      "removed \(removed.files) file\(removed.files == 1 ? "" : "s") (\(Self.size(removed.bytes))) from "
        + folders.joined(separator: ", "))
  }

  /// `512 B`, `1.5 KiB`, `3.2 MiB`.
  static func size(_ bytes: Int64) -> String {
    var value = Double(bytes)
    for unit in ["B", "KiB", "MiB", "GiB"] {
      if value < 1024 || unit == "GiB" {
        return unit == "B" ? "\(bytes) B" : String(format: "%.1f", value) + " " + unit
      }
      value /= 1024
    }
    return "\(bytes) B"
  }
}
