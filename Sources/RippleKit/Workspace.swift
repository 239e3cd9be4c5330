import ConfigLoading
import Foundation
import Git
import RippleConfig
import RippleCore
import SystemClients

/// One opened checkout: its repository, root, configuration and services, made once per command or
/// daemon run. Every job is an operation on it (`affected`, `graph`, `planTests`/`runTests`, `bootstrap`),
/// so "find the repository, require a work tree, read ripple.yml" happens in one place
/// (docs/ARCHITECTURE.md, "The workspace").
public struct Workspace: Sendable {
  public let repository: GitRepository
  /// The work tree's absolute path, without a trailing `/`.
  public let root: String
  public let configuration: RippleConfiguration
  public let services: RippleServices
  /// What this workspace already read of the team's shared history (SharedHistory.swift): `--base auto` and the
  /// test plan of one command ask for the same slots.
  let sharedHistoryReads = Locked<[String: SharedHistoryRead]>([:])

  /// Opens the repository holding `directory` (any folder inside it) and reads its config (`configPath`,
  /// else ripple.yml, .ripple.yml or Config/ripple.yml at the root; built-in defaults when none exists).
  public static func open(directory: String, configPath: String? = nil, services: RippleServices) throws -> Workspace {
    try open(repository: GitRepository.discover(from: directory), configPath: configPath, services: services)
  }

  /// Opens a repository the caller already holds (rippled's private work trees).
  public static func open(repository: GitRepository, configPath: String? = nil, services: RippleServices) throws
    -> Workspace
  {
    let root = try workTreeRoot(of: repository)
    let configuration = try ConfigLoader.load(repoRoot: root, explicitPath: configPath)
    return Workspace(repository: repository, root: root, configuration: configuration, services: services)
  }

  public init(repository: GitRepository, root: String, configuration: RippleConfiguration, services: RippleServices) {
    self.repository = repository
    self.root = root
    self.configuration = configuration
    // Every process a job starts goes through `services.process`: none of them sees the signing key or the
    // store's credentials (docs/DESIGN.md, "Secrets and child processes").
    var services = services
    services.process = services.process.withholding(
      ChildEnvironment.defaultSecretNames.union(configuration.test.resultCache.secretVariables))
    self.services = services
  }

  /// Every job reads files of the checkout, so a bare repository is an error naming it.
  static func workTreeRoot(of repository: GitRepository) throws -> String {
    guard let workdir = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "read the packages")
    }
    return workdir
  }

  /// The changed paths a request names (`ripple changes`, and the first step of `affected`).
  public func changes(_ request: ChangeRequest) throws -> ChangeSet {
    try ChangeDetection.detect(request, in: repository)
  }
}
