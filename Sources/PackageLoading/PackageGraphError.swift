import PackageModel
import RippleCore

/// Every failure of loading a package graph.
public enum PackageGraphError: RippleError, Equatable {
  /// The Swift toolchain could not be found.
  case swiftNotFound(executable: String)
  /// `swift --version` did not run or printed something unexpected.
  case toolchainUnusable(executable: String, message: String)
  /// `swift package dump-package` failed for a manifest.
  case manifestFailed(packagePath: String, revision: String, environment: [String: String], message: String)
  /// A nested manifest depends on the repository's root package (`.package(path: "../")`) under the name
  /// of the folder it was developed in, but this checkout's folder has another name, and SwiftPM names a
  /// path dependency after its folder.
  case rootFolderNameMismatch(packagePath: String, revision: String, packageName: String, folderName: String)
  /// Several manifests failed to evaluate (each error in package order).
  indirect case manifestsFailed([PackageGraphError])
  /// `swift package dump-package` succeeded but printed something Ripple cannot read.
  case unexpectedManifestOutput(packagePath: String, revision: String, reason: String)
  /// A file of the tree could not be read.
  case unreadableFile(path: String, revision: String, reason: String)
  /// The scratch directory for evaluating manifests of a revision could not be prepared.
  case scratchDirectoryFailed(path: String, reason: String)
  /// A `Package.resolved` file is not valid.
  case invalidResolvedFile(path: String, reason: String)
  /// A `selection.toolchains` version is newer than the installed toolchain, which cannot evaluate the
  /// manifests that version reads. `origin` is where the config lists it (`ripple.yml:4:17: …`).
  case toolchainNewerThanInstalled(origin: String, version: String, installed: String)
  /// SwiftPM of a `selection.toolchains` version cannot read the manifest it would choose: its
  /// `swift-tools-version` is newer than that version.
  case toolchainOlderThanManifest(
    origin: String, version: String, packagePath: String, revision: String, manifest: String, toolsVersion: String)

  public var category: ErrorCategory {
    switch self {
    case .toolchainNewerThanInstalled, .toolchainOlderThanManifest: .usage
    case .unexpectedManifestOutput: .internal
    case .swiftNotFound, .toolchainUnusable, .manifestFailed, .rootFolderNameMismatch, .unreadableFile,
      .scratchDirectoryFailed, .invalidResolvedFile:
      .environment
    case .manifestsFailed(let errors):
      errors.contains { $0.category == .internal } ? .internal : .environment
    }
  }

  public var description: String {
    switch self {
    case .swiftNotFound(let executable):
      "The Swift toolchain (`\(executable)`) was not found on PATH; install Swift from swift.org "
        + "or add the toolchain's `usr/bin` directory to PATH, then run again."
    case .toolchainUnusable(let executable, let message):
      "`\(executable) --version` failed, so the Swift toolchain cannot evaluate manifests; "
        + "check the installation (\(message))."
    case .manifestFailed(let packagePath, let revision, let environment, let message):
      "The manifest of package `\(packagePath)` at \(revision)\(Self.describe(environment)) failed to "
        + "evaluate; fix it (try `swift package dump-package` in that directory) and run again. "
        + "SwiftPM said:\n\(message)"
    case .rootFolderNameMismatch(let packagePath, let revision, let packageName, let folderName):
      "The manifest of package `\(packagePath)` at \(revision) names the repository's root package "
        + "'\(packageName)', but this checkout's folder is '\(folderName)' (SwiftPM names a `.package(path:)` "
        + "dependency after its folder, so here the root package is '\(folderName.lowercased())'); clone into a "
        + "folder named '\(packageName)', or leave `\(packagePath)` out with `excludePackages` in ripple.yml "
        + "(`--fallback all` runs every test meanwhile)."
    case .manifestsFailed(let errors):
      "\(errors.count) manifests failed to evaluate:\n"
        + errors.map { "- " + $0.description.replacingOccurrences(of: "\n", with: "\n  ") }.joined(separator: "\n")
    case .unexpectedManifestOutput(let packagePath, let revision, let reason):
      "`swift package dump-package` for package `\(packagePath)` at \(revision) printed output Ripple "
        + "cannot read (\(reason)); this SwiftPM version may be unsupported, please report it."
    case .unreadableFile(let path, let revision, let reason):
      "Could not read `\(path)` at \(revision) (\(reason)); check that the repository is readable."
    case .scratchDirectoryFailed(let path, let reason):
      "Could not prepare the scratch directory `\(path)` for evaluating manifests (\(reason)); "
        + "check free space and permissions of the temporary directory (TMPDIR)."
    case .invalidResolvedFile(let path, let reason):
      "`\(path)` is not a valid Package.resolved (\(reason)); fix it or regenerate it with "
        + "`swift package resolve`."
    case .toolchainNewerThanInstalled(let origin, let version, let installed):
      "\(origin): Swift \(version) is newer than the installed toolchain (Swift \(installed)), which cannot "
        + "evaluate the manifests Swift \(version) would read; list versions up to \(installed), or install a "
        + "newer toolchain."
    case .toolchainOlderThanManifest(let origin, let version, let packagePath, let revision, let manifest, let tools):
      "\(origin): Swift \(version) cannot read package `\(packagePath)` at \(revision): the manifest it would "
        + "choose, `\(manifest)`, declares swift-tools-version \(tools); remove \(version) from the list, or add a "
        + "`Package@swift-\(version).swift` that Swift \(version) can read."
    }
  }

  /// Nil for no failure, the error itself for one, `.manifestsFailed` for several.
  public static func combining(_ errors: [PackageGraphError]) -> PackageGraphError? {
    errors.count <= 1 ? errors.first : .manifestsFailed(errors)
  }

  private static func describe(_ environment: [String: String]) -> String {
    guard !environment.isEmpty else { return "" }
    let pairs = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return " with environment " + pairs.joined(separator: " ")
  }
}
