import Foundation
import RippleConfig

/// One asset, with every path it touches worked out (pure).
struct AssetPlan: Sendable, Hashable {
  var spec: AssetSpec
  /// Repo-relative destinations (one per variant).
  var destinations: [String]
  /// Absolute staging folders, parallel to `destinations`.
  var stagings: [String]
  /// An `lfs` source's pointers, listed before anything is decided (nil for other sources).
  var lfs: [LFSPointer]?
  /// Where the run-time URL now in `spec.source` came from (`$AUDIO_URL`): the fetcher never shows that URL.
  var link: String?

  init(_ spec: AssetSpec, state: RepositoryState) {
    self.spec = spec
    self.destinations = spec.installDestinations
    self.stagings = destinations.map { state.stagingPath(destination: $0, assetID: spec.id) }
  }

  /// Everything that decides the installed files of this kind; a receipt with another value is stale.
  func fingerprint(_ kind: InstallKind) -> String {
    var parts = ["v1", kind.rawValue] + destinations
    switch kind {
    case .placeholder, .generated:  // `.generated` is a generate entry's kind (GenerateKey), never an asset's
      parts += spec.placeholders.flatMap { [$0.path, $0.contents] }
    case .private:
      parts.append(spec.sha256)
      if let archive = spec.archive {
        parts += [archive.format.rawValue, "\(archive.stripComponents)"] + (archive.flatten ? ["flatten"] : [])
        parts += archive.include.map { "+" + $0.pattern } + archive.exclude.map { "-" + $0.pattern }
      }
      if let transform = spec.transform {
        parts += transform.command + transform.files.map(\.pattern) + [transform.outputName]
        for variant in transform.variants {
          parts +=
            [variant.name, variant.destination]
            + variant.variables.sorted { $0.key < $1.key }.map {
              "\($0.key)=\($0.value)"
            }
        }
      }
    }
    return FileHasher.sha256(of: Data(parts.joined(separator: "\u{1F}").utf8))
  }
}

/// Whether an asset's receipt still describes what is on disk, judged by size and mtime only.
enum UpToDateCheck {
  enum Verdict: Equatable {
    /// Every file is as installed, except `edited` (kept: changed content, same path).
    case current(edited: [String])
    case stale
  }

  /// `force` (`--force`): always stale, so every asset is reinstalled.
  static func evaluate(_ receipt: Receipt?, fingerprint: String, state: RepositoryState, force: Bool) -> Verdict {
    guard !force, let receipt, receipt.fingerprint == fingerprint else { return .stale }
    var edited: [String] = []
    for (destination, files) in receipt.destinations {
      for file in files {
        let path = state.absolute(destination + "/" + file.path)
        if file.stampMatches(path) { continue }
        guard FileIO.exists(path) else { return .stale }
        switch try? Installer.status(of: path, recorded: file) {
        case .unchanged: return .stale  // touched only: reinstalling refreshes the receipt
        case .edited:
          edited.append(destination + "/" + file.path)
        default: return .stale
        }
      }
    }
    return .current(edited: edited.sorted())
  }
}
