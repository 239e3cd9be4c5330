import ArgumentParser
import Foundation
import PackageLoading
import RippleKit

enum CacheOutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

struct CacheKeyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "key",
    abstract: "A key over every manifest, the manifest environments and the toolchain (for actions/cache).",
    discussion: """
      Trees with the same key need the same evaluated manifests. Save the directory `ripple cache path` \
      prints under this key; restore with --restore-prefix as the fallback (entries of unchanged manifests \
      still hit).
      """
  )

  @OptionGroup var repository: RepositoryOptions

  @Flag(help: "Print only the prefix shared by every key of this toolchain (for restore-keys).")
  var restorePrefix = false

  @Option(help: "Output: text (the key) or json (key, restorePrefix, path, packages, manifests).")
  var format: CacheOutputFormat = .text

  func validate() throws {
    if restorePrefix && format == .json { throw ValidationError("--restore-prefix goes with --format text.") }
  }

  func run() async throws {
    let services = RippleServices.live
    let key = try await repository.openWorkspace(services: services).cacheKey()
    switch format {
    case .text:
      print(restorePrefix ? key.restorePrefix : key.key)
    case .json:
      let document: [String: String] = [
        "key": key.key, "restorePrefix": key.restorePrefix, "path": CacheJob.directory(services: services),
        "packages": String(key.packageCount), "manifests": String(key.manifestCount),
      ]
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(document), as: UTF8.self))
    }
  }
}
