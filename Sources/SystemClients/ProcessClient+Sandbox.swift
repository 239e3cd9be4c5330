import Foundation
import RippleCore

extension ProcessClient {
  /// Every command run inside `policy` by bubblewrap (`bwrap`, looked up on PATH unless a path is given).
  /// Results carry the original request, so messages name the command, not bwrap. The folders the policy
  /// makes writable are created first: bwrap binds only folders that exist.
  ///
  /// - `environment`: the variables of this process the command inherits (`runs.environment`); nil: all.
  ///   What a request sets itself is kept.
  /// - When a command ends, whatever it left in its PID namespace is killed (`SandboxRemains`) and
  ///   `leftovers` is told what was, if anything: at once after a normal end; after a cancellation or a
  ///   timeout when the process group's grace is over (`ProcessGroupReaper`: SIGINT, then SIGKILL 5 s later).
  public func sandboxed(
    _ policy: SandboxPolicy, bwrap: String = "bwrap", environment: EnvironmentAllowList? = nil,
    leftovers: (@Sendable (ProcessRequest, [NamespacedProcess]) -> Void)? = nil
  ) -> ProcessClient {
    let base = self
    @Sendable func prepare(_ request: ProcessRequest) -> ProcessRequest {
      var request = request
      if let environment {
        request.environment = environment.restricting(
          request.environment, inherited: ProcessInfo.processInfo.environment.keys)
      }
      for folder in policy.writable + [policy.writableTemporary(request)].compactMap({ $0 }) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      return policy.wrap(request, bwrap: bwrap)
    }
    @Sendable func contained(
      _ request: ProcessRequest, _ body: @Sendable (ProcessRequest) async throws -> ProcessResult
    ) async throws -> ProcessResult {
      let groups = GroupList()
      let outer = ProcessClient.groupObserver
      let observer = ProcessGroupObserver(
        started: { pid in
          groups.add(pid)
          outer?.started(pid)
        }, ended: { pid in outer?.ended(pid) })
      @Sendable func end() {
        for group in groups.all {
          let left = SandboxRemains.end(group: group)
          if !left.isEmpty { leftovers?(request, left) }
        }
      }
      do {
        var result = try await ProcessClient.$groupObserver.withValue(observer) { try await body(prepare(request)) }
        end()
        result.request = request
        return result
      } catch {
        // Just before the reaper's SIGKILL to the group (which would end the namespace too, unreported).
        DispatchQueue.global().asyncAfter(deadline: .now() + ProcessGroupReaper.killDelay - 0.25) { end() }
        throw error
      }
    }
    return ProcessClient(
      run: { request in try await contained(request) { try await base.run($0) } },
      runStreaming: { request, onLine in try await contained(request) { try await base.runStreaming($0, onLine) } })
  }
}

/// The process groups one sandboxed command started (one, unless a client retries).
private final class GroupList: @unchecked Sendable {
  private let lock = NSLock()
  private var groups: [pid_t] = []
  func add(_ group: pid_t) { lock.withLock { groups.append(group) } }
  var all: [pid_t] { lock.withLock { groups } }
}

/// Which of this process's variables a sandboxed command inherits (`runs.environment` in rippled.yml): the
/// others are removed, so a branch's tests never see the daemon's credentials (`AWS_SECRET_ACCESS_KEY`).
/// Variables the request sets itself (the run's TMPDIR, its `test.runs` variables) are the run's and stay.
public struct EnvironmentAllowList: Sendable, Hashable {
  public static let defaultNames = ["PATH", "HOME", "LANG", "TMPDIR"]
  public var names: Set<String>

  public init() { self.init(Self.defaultNames) }
  public init(_ names: some Sequence<String>) { self.names = Set(names) }

  /// `requested` with every inherited variable not allowed and not set by the request removed (nil).
  public func restricting(_ requested: [String: String?], inherited: some Sequence<String>) -> [String: String?] {
    var result = requested
    for name in inherited where !names.contains(name) && requested[name] == nil { result[name] = .some(nil) }
    return result
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

  /// `isolatingNetwork`: whether runs get a network namespace of their own, tried too (`--unshare-net`).
  public static func probe(process: ProcessClient, bwrap: String = "bwrap", isolatingNetwork: Bool = false) async
    -> SandboxAvailability
  {
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
        ProcessRequest(
          bwrap,
          SandboxPolicy.baseArguments + (isolatingNetwork ? SandboxPolicy.networkArguments : []) + ["--", "true"],
          timeout: .seconds(30)))
      return .available(version: version.isEmpty ? bwrap : version)
    } catch {
      return .unavailable(
        reason: "\(version.isEmpty ? bwrap : version) is installed but cannot create its namespaces "
          + "(unprivileged user namespaces disabled? see sysctl kernel.unprivileged_userns_clone and "
          + "kernel.apparmor_restrict_unprivileged_userns): \((error as? any RippleError)?.description ?? "\(error)")")
    }
  }
}
