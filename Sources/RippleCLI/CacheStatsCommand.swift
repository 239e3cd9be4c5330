import ArgumentParser
import Foundation
import PackageLoading
import RippleCore
import RippleKit

struct CacheStatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Print the manifest cache's directory, file count, size and the age of its files."
  )

  @Option(help: "Output: text or json.")
  var format: CacheOutputFormat = .text

  func run() throws {
    let services = RippleServices.live
    let directory = CacheJob.directory(services: services)
    let usage = try CacheJob.stats(services: services)
    print(Self.render(usage, directory: directory, format: format, now: Date()), terminator: "")
  }

  static func render(_ usage: CacheDirectoryUsage, directory: String, format: CacheOutputFormat, now: Date) -> String {
    switch format {
    case .json:
      var document: [String: Any] = ["path": directory, "files": usage.files, "bytes": Int(usage.bytes)]
      if let oldest = usage.oldest { document["oldestAgeSeconds"] = Int(now.timeIntervalSince(oldest)) }
      if let newest = usage.newest { document["newestAgeSeconds"] = Int(now.timeIntervalSince(newest)) }
      let data =
        (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
      return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/") + "\n"
    case .text:
      var lines = ["path: \(directory)", "files: \(usage.files)", "size: \(CachePruneCommand.size(usage.bytes))"]
      if let oldest = usage.oldest, let newest = usage.newest {
        lines.append(
          "written: \(AgeText.short(now.timeIntervalSince(oldest))) to \(AgeText.short(now.timeIntervalSince(newest))) ago"
        )
      }
      return lines.joined(separator: "\n") + "\n"
    }
  }
}
