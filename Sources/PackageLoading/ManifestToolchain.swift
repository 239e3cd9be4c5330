/// One Swift version of `selection.toolchains` (docs/DESIGN.md, rule 4): the graph includes the manifest
/// SwiftPM of that version would read, evaluated with the installed toolchain.
public struct ManifestToolchain: Sendable, Hashable {
  /// As listed, for example [6, 0] or [6, 1, 2].
  public var version: [Int]
  /// Where the config lists it (`ripple.yml:4:17: selection.toolchains[0]`), for errors.
  public var origin: String

  public init(version: [Int], origin: String) {
    self.version = version
    self.origin = origin
  }

  /// `6.0`, `6.1.2`.
  public var name: String { version.map(String.init).joined(separator: ".") }
}
