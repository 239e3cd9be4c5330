/// The fingerprint of a value evaluated once per `selection.toolchains` version (docs/DESIGN.md, rule 4):
/// one segment per version, each naming the manifest that version reads, so a comparison can say which
/// version saw a change (`Package@swift-6.0.swift (Swift 6.0): entry changed`).
///
/// Fingerprints are canonical JSON text, which never holds the raw control characters used here as
/// separators.
public enum ToolchainFingerprint {
  /// One version's part: the manifest it reads, the version, and the fingerprint there (nil when absent).
  public struct Segment: Sendable, Hashable {
    public var manifest: String
    public var version: String
    public var fingerprint: String?

    public init(manifest: String, version: String, fingerprint: String?) {
      self.manifest = manifest
      self.version = version
      self.fingerprint = fingerprint
    }
  }

  static let marker = "\u{1E}toolchains"
  static let segmentSeparator: Character = "\u{1E}"
  static let fieldSeparator: Character = "\u{1F}"
  static let absent = "<absent>"

  public static func joined(_ segments: [Segment]) -> String {
    let parts = segments.map { segment in
      [segment.manifest, segment.version, segment.fingerprint ?? absent].joined(separator: String(fieldSeparator))
    }
    return ([marker] + parts).joined(separator: String(segmentSeparator))
  }

  /// The segments of `fingerprint`, nil when it is not a per-toolchain fingerprint.
  public static func segments(of fingerprint: String) -> [Segment]? {
    guard fingerprint.hasPrefix(marker) else { return nil }
    return fingerprint.dropFirst(marker.count).split(separator: segmentSeparator).map { part in
      let fields = part.split(separator: fieldSeparator, maxSplits: 2, omittingEmptySubsequences: false)
      let value = fields.count > 2 ? String(fields[2]) : absent
      return Segment(
        manifest: String(fields.first ?? ""), version: fields.count > 1 ? String(fields[1]) : "",
        fingerprint: value == absent ? nil : value)
    }
  }

  /// Where `old` and `new` differ, as reason prefixes: `Package@swift-6.0.swift (Swift 6.0)`, versions
  /// reading the same manifest grouped (`Package.swift (Swift 6.1, 6.3)`). Nil when `new` is not a
  /// per-toolchain fingerprint; empty when they are equal.
  public static func changedSources(old: String, new: String) -> [String]? {
    guard let after = segments(of: new) else { return nil }
    let before = segments(of: old)
    var order: [String] = []
    var versions: [String: [String]] = [:]
    for (index, segment) in after.enumerated() {
      let previous = before.flatMap { index < $0.count ? $0[index] : nil }
      guard previous != segment else { continue }
      if versions[segment.manifest] == nil { order.append(segment.manifest) }
      versions[segment.manifest, default: []].append(segment.version)
    }
    return order.map { "\($0) (Swift \(versions[$0]!.joined(separator: ", ")))" }
  }
}
