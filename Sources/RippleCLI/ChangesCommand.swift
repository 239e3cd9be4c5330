import ArgumentParser
import Foundation
import RippleCore
import RippleKit

enum ChangesFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

struct ChangesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "changes",
    abstract: "List the changed paths between two revisions, or a revision and the working tree."
  )

  @OptionGroup var repository: RepositoryOptions
  @OptionGroup var revisions: RevisionOptions

  @Option(help: "Output: text or json.")
  var format: ChangesFormat = .text

  func run() throws {
    let changeSet = try ChangeDetection.detect(
      revisions.request(repositoryRoot: ChangeDetection.repositoryRoot(directory: repository.resolvedDirectory)),
      directory: repository.resolvedDirectory)
    switch format {
    case .json:
      print(try ChangesReport(changeSet).json())
    case .text:
      // What was compared, on stderr: stdout stays one change per line for scripts.
      let head = changeSet.head.map { String($0.hex.prefix(10)) } ?? "the working tree"
      let mergeBase =
        changeSet.mergeBase.map { $0 != changeSet.base ? " (their merge-base \($0.hex.prefix(10)))" : "" } ?? ""
      Terminal.standardError.write("Comparing \(head) with \(changeSet.base.hex.prefix(10))\(mergeBase)\n")
      if changeSet.changes.isEmpty {
        Terminal.standardError.write(
          "no changes between \(changeSet.from.short) and \(changeSet.head?.short ?? "the working tree")\n")
      }
      for change in changeSet.changes {
        let line =
          if let old = change.oldPath, change.status == .renamed || change.status == .copied {
            "\(change.status.rawValue)\t\(old) -> \(change.path)"
          } else {
            "\(change.status.rawValue)\t\(change.path)"
          }
        print(line)
      }
      // On stderr, like the "no changes" note: stdout stays one change per line for scripts.
      if !changeSet.installedByBootstrap.isEmpty {
        Terminal.standardError.write(
          "installed by bootstrap or written by ripple test, holding the bytes recorded (not changes):\n"
            + changeSet.installedByBootstrap.map { "  \($0)\n" }.joined())
      }
    }
  }
}

/// `ripple changes --format json`: the same header fields as `affected --format json`.
struct ChangesReport: Encodable {
  var schemaVersion = 1
  var base: String
  var head: String
  var mergeBase: String?
  var changedFiles: [ChangedFile]
  /// Untracked files bootstrap installed, with the bytes its receipts record: not in `changedFiles`.
  var installedByBootstrap: [String]

  init(_ changeSet: ChangeSet) {
    base = changeSet.base.hex
    head = changeSet.headLabel
    mergeBase = changeSet.mergeBase?.hex
    changedFiles = changeSet.changes
    installedByBootstrap = changeSet.installedByBootstrap
  }

  func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
