import Foundation
import RippleCore

extension ProcessClient {
  /// Every command run inside `policy` by bubblewrap (`bwrap`, looked up on PATH unless a path is given).
  /// Results carry the original request, so messages name the command, not bwrap. The folders the policy
  /// makes writable are created first: bwrap binds only folders that exist.
  public func sandboxed(_ policy: SandboxPolicy, bwrap: String = "bwrap") -> ProcessClient {
    let base = self
    @Sendable func prepare(_ request: ProcessRequest) -> ProcessRequest {
      var folders = policy.writable
      if case let temporary?? = request.environment["TMPDIR"], temporary.hasPrefix("/") { folders.append(temporary) }
      for folder in folders {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      return policy.wrap(request, bwrap: bwrap)
    }
    @Sendable func restore(_ result: ProcessResult, _ request: ProcessRequest) -> ProcessResult {
      var result = result
      result.request = request
      return result
    }
    return ProcessClient(
      run: { request in restore(try await base.run(prepare(request)), request) },
      runStreaming: { request, onLine in restore(try await base.runStreaming(prepare(request), onLine), request) })
  }
}

/// Whether bubblewrap can sandbox a run's processes on this machine.
public enum SandboxAvailability: Sendable, Hashable {
  /// `version`: what `bwrap --version` printed (`bubblewrap 0.8.0`).
  case available(version: String)
  case unavailable(reason: String)
}

/// Finds out by running bwrap for real: installed is not enough, the kernel must let it create its
/// namespaces (unprivileged user namespaces can be disabled by sysctl, AppArmor or a container runtime).
public enum SandboxProbe {
  /// What running without the sandbox means, for `ripple doctor`, `rippled check-config` and the log.
  public static let consequence =
    "rippled's runs are not sandboxed: a branch's build, test, manifest and generate processes can write the "
    + "daemon's state, cache (and so change what other branches' runs select), tokens and logs"

  public static func probe(process: ProcessClient, bwrap: String = "bwrap") async -> SandboxAvailability {
    let version: String
    do {
      let result = try await process.runChecked(ProcessRequest(bwrap, ["--version"], timeout: .seconds(30)))
      version = result.outputString.trimmingCharacters(in: .whitespacesAndNewlines)
    } catch ProcessError.notFound {
      return .unavailable(
        reason: "bubblewrap (`\(bwrap)`) is not installed; install it (Debian/Ubuntu: apt-get install bubblewrap)")
    } catch {
      return .unavailable(
        reason: "`\(bwrap) --version` failed: \((error as? any RippleError)?.description ?? "\(error)")")
    }
    do {
      _ = try await process.runChecked(
        ProcessRequest(bwrap, SandboxPolicy.baseArguments + ["--", "true"], timeout: .seconds(30)))
      return .available(version: version.isEmpty ? bwrap : version)
    } catch {
      return .unavailable(
        reason: "\(version.isEmpty ? bwrap : version) is installed but cannot create its namespaces "
          + "(unprivileged user namespaces disabled? see sysctl kernel.unprivileged_userns_clone and "
          + "kernel.apparmor_restrict_unprivileged_userns): \((error as? any RippleError)?.description ?? "\(error)")")
    }
  }
}
