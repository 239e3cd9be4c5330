import Foundation
import RippleConfig
import RippleCore
import RippleKit
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

#if os(Linux)
  /// Issue 39, item 10: a branch's test reached rippled's API on loopback and kept the operator's token
  /// throttled. With the real bubblewrap, through the services rippled gives a run: `runs.network: isolated`
  /// reaches nothing the host listens on (loopback or its other addresses), `host` does.
  @Suite("a run's network", .serialized)
  struct RunNetworkTests {
    typealias Folders = RunIsolationTests.Folders

    /// Tries each `host:port` of its arguments, then serves and reaches a server of its own on 127.0.0.1.
    static let probe = """
      import socket, sys
      for target in sys.argv[1:]:
          host, port = target.rsplit(":", 1)
          s = socket.socket()
          s.settimeout(5)
          try:
              s.connect((host, int(port)))
              print(target, "reached")
          except OSError:
              print(target, "unreachable")
          finally:
              s.close()
      server = socket.socket()
      server.bind(("127.0.0.1", 0))
      server.listen(1)
      client = socket.create_connection(server.getsockname(), timeout=5)
      connection, _ = server.accept()
      client.sendall(b"ping")
      print("own loopback", connection.recv(4).decode())
      """

    /// What the probe prints inside a run's sandbox with `network`, for a listener on every address of the host.
    func probe(_ network: RunNetwork) async throws -> (output: String, targets: [String]) {
      let folders = try Folders()
      var isolation = RunIsolation(bwrap: "bwrap", paths: folders.paths)
      isolation.network = network
      let services = isolation.apply(
        to: RippleServices(process: .live, environment: [:]), run: RunIsolationTests.run("main"),
        settings: RunIsolationTests.settings)
      let listener = try TCPListener()
      let targets = (["127.0.0.1"] + TCPListener.hostAddresses()).map { "\($0):\(listener.port)" }
      let result = try await services.process.run(
        // A bound a loaded parallel run cannot miss (30 s was missed once): the probe itself takes well under 1 s.
        ProcessRequest(try python3Executable(), ["-c", Self.probe] + targets, timeout: .seconds(120)))
      #expect(result.exitStatus == 0, "\(result.errorString)")
      return (result.outputString, targets)
    }

    @Test func anIsolatedRunReachesNothingOfTheHostButHasItsOwnLoopback() async throws {
      let (output, targets) = try await probe(.isolated)
      let expected = targets.map { "\($0) unreachable\n" }.joined() + "own loopback ping\n"
      #expect(output == expected)
    }

    @Test func withNetworkHostARunReachesTheHostsListeners() async throws {
      let (output, targets) = try await probe(.host)
      let expected = targets.map { "\($0) reached\n" }.joined() + "own loopback ping\n"
      #expect(output == expected)
    }

    /// `isolated` is the default, and bubblewrap is probed as runs use it: a host where `--unshare-net` fails
    /// does not get unsandboxed runs by surprise (`required` refuses to start).
    @Test func theDefaultIsIsolatedAndTheProbeTriesIt() async throws {
      #expect(DaemonConfiguration().network == .isolated)
      let probe = ScriptedProcess()
        .on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
        .on(.command("bwrap"), .exit(0))
      let lines = Locked<[String]>([])
      let log = DaemonLog(minimum: .debug) { line in lines.withLock { $0.append(line) } }
      let isolation = try await RunIsolation.make(
        DaemonConfiguration(), paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"), environment: [:],
        configFile: nil, process: probe.client, log: log)
      #expect(probe.requests.last?.arguments.contains("--unshare-net") == true, "\(probe.requests)")
      let policy = isolation.policy(run: RunIsolationTests.run("main"), settings: RunIsolationTests.settings)
      #expect(policy.isolatesNetwork)
      #expect(lines.withLock { $0.contains { $0.contains("runs.network: isolated") } }, "\(lines.withLock { $0 })")
    }

    /// `rippled check-config` says what a run's processes can reach.
    @Test func checkConfigSaysWhatARunCanReach() async throws {
      let probe = ScriptedProcess()
        .on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
        .on(.command("bwrap"), .exit(0))
      var configuration = DaemonConfiguration()
      let isolated = try await Rippled.sandboxSummary(configuration, process: probe.client)
      #expect(isolated.contains("runs.network: isolated: a run's processes have only a loopback of their own"))
      configuration.network = .host
      let host = try await Rippled.sandboxSummary(configuration, process: probe.client)
      #expect(host.contains("runs.network: host: a run's processes share the host's network, rippled's API included"))
      configuration.sandbox = .off
      let off = try await Rippled.sandboxSummary(configuration, process: probe.client)
      #expect(off.hasSuffix("runs share the host's network and can reach rippled's API"), "\(off)")
    }
  }

  /// A TCP listener on every address of this host, on a free port. Connections complete in the kernel's backlog:
  /// nothing accepts them, the test only asks whether they could be made.
  final class TCPListener {
    let descriptor: Int32
    let port: Int

    init() throws {
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = INADDR_ANY
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          bind(descriptor, generic, length) == 0 && listen(descriptor, 64) == 0
            && getsockname(descriptor, generic, &length) == 0
        }
      }
      guard descriptor >= 0, bound else {
        close(descriptor)
        throw TestSetupError(description: "cannot listen: errno \(errno)")
      }
      self.descriptor = descriptor
      port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// The host's IPv4 addresses other than loopback (none in a container without a network).
    static func hostAddresses() -> [String] {
      var list: UnsafeMutablePointer<ifaddrs>?
      guard getifaddrs(&list) == 0 else { return [] }
      defer { freeifaddrs(list) }
      var addresses: [String] = []
      var next = list
      while let entry = next?.pointee {
        next = entry.ifa_next
        guard let address = entry.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
          entry.ifa_flags & UInt32(IFF_LOOPBACK) == 0
        else { continue }
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
          var raw = inet.pointee.sin_addr
          _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(INET_ADDRSTRLEN))
        }
        addresses.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
      }
      return addresses
    }
  }
#endif

/// A build that cannot fetch in a network of its own says why, once (pure: no sandbox needed).
@Suite struct NetworkHintTests {
  @Test func aFetchWithoutNetworkGetsOneNoteOnlyWhenIsolated() {
    let hint = NetworkHint(isolated: true)
    #expect(hint.note(after: "Compiling Core Core.swift") == nil)
    let failure = "error: Couldn’t fetch updates from remote repositories:"
    #expect(hint.note(after: failure) == NetworkHint.note)
    #expect(hint.note(after: "fatal: unable to access 'https://x/': Could not resolve host: x") == nil, "once")
    #expect(NetworkHint(isolated: false).note(after: failure) == nil, "runs.network: host or no sandbox")
    #expect(NetworkHint.note.contains("runs.network: host"))
  }
}
