import Assets
import BuildInfo
import Foundation
import Git
import RippleConfig
import RippleCore
import SystemClients

/// One thing Ripple needs, checked: what was found, or what is wrong and the command that fixes it.
public struct DoctorCheck: Sendable, Hashable {
  public var name: String
  public var ok: Bool
  public var detail: String
  public var fix: String?
  /// Worth knowing but not a failure (e.g. no asset credentials: placeholders will be installed).
  public var isWarning = false
}

/// `ripple doctor`: every prerequisite, each with a fix when it fails. It opens the workspace itself,
/// since not being able to open one (no repository, a bare one, a broken ripple.yml) is what it reports;
/// the checks of an opened workspace are `Workspace.doctor()`.
public enum Doctor {
  public static func run(directory: String, configPath: String?, services: RippleServices) async -> [DoctorCheck] {
    var checks = [
      DoctorCheck(
        name: "ripple", ok: true,
        detail:
          "ripple \(BuildInfo.version) (commit \(BuildInfo.commit ?? "unknown"), Swift \(BuildInfo.swiftVersion))",
        fix: nil),
      DoctorCheck(name: "libgit2", ok: true, detail: "libgit2 \(GitLibrary.version)", fix: nil),
      DoctorCheck(name: "libarchive", ok: true, detail: ArchiveLibrary.version, fix: nil),
    ]
    checks.append(await swiftToolchain(services))
    var repository: GitRepository?
    do {
      let found = try GitRepository.discover(from: directory)
      repository = found
      checks.append(
        DoctorCheck(
          name: "repository", ok: found.workdir != nil,
          detail: found.workdir.map { "git repository at \($0)" } ?? "\(found.gitDirectory) is bare",
          fix: found.workdir == nil ? "run ripple in a checkout with a working tree" : nil))
    } catch {
      checks.append(DoctorCheck(name: "repository", ok: false, detail: "\(error)", fix: nil))
    }
    if let repository, repository.workdir != nil {
      do {
        let workspace = try Workspace.open(repository: repository, configPath: configPath, services: services)
        let config = workspace.configuration
        checks.append(
          DoctorCheck(
            name: "config", ok: true,
            detail: config.sourcePath.map { "config \($0) is valid" } ?? "no ripple.yml: built-in defaults", fix: nil))
        checks += await workspace.doctor()
      } catch {
        checks.append(
          DoctorCheck(name: "config", ok: false, detail: "\(error)", fix: "edit the file as the message says"))
      }
    }
    checks.append(cacheDirectory(services))
    checks.append(await sandbox(services))
    return checks
  }

  /// `test.runs`: this platform has a run, every run's environment evaluates, each `test.requires` check
  /// passes.
  static func testRuns(_ workspace: Workspace) async -> [DoctorCheck] {
    let host = Platform.host
    let runs = workspace.configuration.testRuns
    let here = runs.filter { $0.runs(on: host) }
    var checks = [
      DoctorCheck(
        name: "test runs", ok: !here.isEmpty,
        detail: here.isEmpty
          ? "no test run is for \(host.rawValue): every selected test would be listed as not run here"
          : "on \(host.rawValue): " + here.map(\.name).joined(separator: ", "),
        fix: here.isEmpty ? "add \(host.rawValue) to the platforms of a run in test.runs" : nil)
    ]
    for run in runs where run.runner == .xcodebuild {
      checks.append(await xcodebuildRun(run, host: host, process: workspace.services.process))
    }
    do {
      let graph = try await workspace.graph()
      let environments = workspace.configuration.graphEnvironments
      checks.append(
        DoctorCheck(
          name: "manifests", ok: true,
          detail: "\(graph.packages.count) package\(graph.packages.count == 1 ? "" : "s") evaluate in "
            + environments.map(TestConfig.name(of:)).joined(separator: ", "),
          fix: nil))
    } catch {
      checks.append(
        DoctorCheck(
          name: "manifests", ok: false, detail: (error as? any RippleError)?.description ?? "\(error)",
          fix: "run the failing `swift package dump-package` with the run's variables and fix the manifest"))
    }
    for requirement in workspace.configuration.test.requires {
      do {
        try await TestRequirements.check(
          [requirement], in: workspace.root, process: workspace.services.process,
          environment: workspace.services.environment)
        checks.append(
          DoctorCheck(
            name: "requires \(requirement.name)", ok: true,
            detail: "`\(requirement.command.joined(separator: " "))` passed", fix: nil))
      } catch {
        checks.append(
          DoctorCheck(
            name: "requires \(requirement.name)", ok: false,
            detail: (error as? any RippleError)?.description ?? "\(error)",
            fix: "start or install what it checks (test.requires in \(requirement.location.file))"))
      }
    }
    return checks
  }

  /// A `runner: xcodebuild` run: on its platform, whether xcodebuild answers; elsewhere a warning that it
  /// is only planned (its targets are named as not run here).
  static func xcodebuildRun(_ run: TestRunSpec, host: Platform, process: ProcessClient) async -> DoctorCheck {
    let name = "xcodebuild run \(run.name)"
    guard run.runs(on: host) else {
      return DoctorCheck(
        name: name, ok: true,
        detail: "planned only: it runs on \(run.platforms.map(\.rawValue).joined(separator: ", ")), this host is "
          + "\(host.rawValue); its selected targets are named as not run here",
        fix: nil, isWarning: true)
    }
    do {
      let result = try await process.runChecked(ProcessRequest("xcodebuild", ["-version"], timeout: .seconds(60)))
      let first = result.outputString.split(separator: "\n").first.map(String.init) ?? "xcodebuild"
      return DoctorCheck(name: name, ok: true, detail: first, fix: nil)
    } catch {
      return DoctorCheck(
        name: name, ok: false, detail: (error as? any RippleError)?.description ?? "\(error)",
        fix: "install Xcode and select it with `xcode-select -s /Applications/Xcode.app`")
    }
  }

  static func swiftToolchain(_ services: RippleServices) async -> DoctorCheck {
    let swift = services.swiftExecutable
    do {
      let result = try await PrivateTemporaryDirectory.with { temporary in
        try await services.process.runChecked(
          ProcessRequest(swift, ["--version"], environment: ["TMPDIR": temporary], timeout: .seconds(60)))
      }
      let first = result.outputString.split(separator: "\n").first.map(String.init) ?? "swift"
      return DoctorCheck(name: "swift", ok: true, detail: first, fix: nil)
    } catch {
      return DoctorCheck(
        name: "swift", ok: false, detail: "\(error)",
        fix: "install a Swift toolchain (https://swift.org/install) and put its bin directory on PATH")
    }
  }

  static func cacheDirectory(_ services: RippleServices) -> DoctorCheck {
    guard let directory = services.manifestCache.directory else {
      return DoctorCheck(name: "cache", ok: true, detail: "manifest cache disabled", fix: nil)
    }
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let probe = directory + "/.doctor-\(getpid())"
      try Data().write(to: URL(fileURLWithPath: probe))
      try FileManager.default.removeItem(atPath: probe)
      return DoctorCheck(name: "cache", ok: true, detail: "manifest cache at \(directory)", fix: nil)
    } catch {
      return DoctorCheck(
        name: "cache", ok: false,
        detail: "cannot write the manifest cache at \(directory): \(error.localizedDescription)",
        fix: "mkdir -p '\(directory)' && chmod u+rwx '\(directory)', or set RIPPLE_CACHE_DIR")
    }
  }
}

extension Workspace {
  /// The checks of an opened workspace: the tools and credentials its assets need, and its test runs
  /// (a run for this platform, manifests that evaluate, `test.requires`).
  public func doctor() async -> [DoctorCheck] {
    AssetChecks.tools(configuration.assets, environment: services.environment)
      + AssetChecks.credentials(configuration.assets, environment: services.environment)
      + ignoredDestinations()
      + (await Doctor.testRuns(self))
  }

  /// A warning per asset or generate destination git does not ignore: what bootstrap installs there would show
  /// up as a change and widen every selection.
  func ignoredDestinations() -> [DoctorCheck] {
    unignoredBootstrapFolders().map { folder in
      DoctorCheck(
        name: "git-ignored \(folder.path)", ok: true,
        detail: "\(folder.path) (\(folder.writer)) is not git-ignored: what bootstrap installs there is a change",
        fix: "add /\(folder.path)/ to .gitignore (ripple init does)", isWarning: true)
    }
  }
}

extension Doctor {
  /// Whether rippled could sandbox its runs on this machine (bwrap installed and able to create its
  /// namespaces): a warning, not a failure, since only a build box running rippled needs it.
  public static func sandbox(_ services: RippleServices) async -> DoctorCheck {
    #if os(Linux)
      // With a network namespace, as rippled's default `runs.network: isolated` uses it.
      switch await SandboxProbe.probe(process: services.process, isolatingNetwork: true) {
      case .available(let version):
        return DoctorCheck(
          name: "sandbox", ok: true,
          detail: "\(version) works: rippled's runs cannot write its state, cache, tokens or logs, have no "
            + "capabilities even when rippled runs as root (--cap-drop ALL) and a network of their own "
            + "(--unshare-net: not rippled's API; both of which this check ran with)", fix: nil)
      case .unavailable(let reason):
        return DoctorCheck(
          name: "sandbox", ok: true, detail: "\(reason); \(SandboxProbe.consequence)",
          fix:
            "apt-get install bubblewrap (and allow unprivileged user namespaces), or trust every branch rippled runs",
          isWarning: true)
      }
    #else
      return DoctorCheck(
        name: "sandbox", ok: true, detail: "rippled sandboxes runs with bubblewrap on Linux only", fix: nil,
        isWarning: true)
    #endif
  }
}
