import Foundation
import SystemClients
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A datagram socket standing in for systemd's notification socket.
private final class NotifySocket {
  let descriptor: Int32
  /// What goes into `$NOTIFY_SOCKET`.
  let address: String
  private let directory: String?

  /// Bound to a file in a fresh directory under /tmp (short: sun_path holds about 100 bytes).
  init() throws {
    let directory = "/tmp/ripple-notify-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    self.directory = directory
    self.address = directory + "/notify"
    self.descriptor = try Self.bound(Array(address.utf8) + [0])
  }

  /// Bound in the abstract namespace (Linux): `@name` in the variable, a leading NUL in the address.
  init(abstractName: String) throws {
    self.directory = nil
    self.address = "@" + abstractName
    self.descriptor = try Self.bound([0] + Array(abstractName.utf8))
  }

  deinit {
    close(descriptor)
    if let directory { try? FileManager.default.removeItem(atPath: directory) }
  }

  /// The next datagram, or nil after `timeout`.
  func receive(timeout: Duration = .seconds(5)) -> String? {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout.components.seconds * 1000)
    guard poll(&poller, 1, milliseconds) == 1 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  private static func bound(_ pathBytes: [UInt8]) throws -> Int32 {
    #if canImport(Glibc)
      let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    #else
      let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
    let length = socklen_t((MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2) + pathBytes.count)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard result == 0 else {
      close(descriptor)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    return descriptor
  }
}

@Suite("ServiceNotifier")
struct ServiceNotifierTests {
  @Test func readySendsOneDatagramWithBothAssignments() throws {
    let socket = try NotifySocket()
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": socket.address])
    #expect(notifier.isEnabled)
    notifier.ready(status: "Watching 2 repositories")
    #expect(socket.receive() == "READY=1\nSTATUS=Watching 2 repositories")
  }

  @Test func everyMessageHasItsExactText() throws {
    let socket = try NotifySocket()
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": socket.address])
    notifier.status("Testing isowords@main")
    #expect(socket.receive() == "STATUS=Testing isowords@main")
    notifier.watchdog()
    #expect(socket.receive() == "WATCHDOG=1")
    notifier.stopping(status: "Waiting for 1 run")
    #expect(socket.receive() == "STOPPING=1\nSTATUS=Waiting for 1 run")
    notifier.extendTimeout(.seconds(90))
    #expect(socket.receive() == "EXTEND_TIMEOUT_USEC=90000000")
    notifier.extendTimeout(.milliseconds(1500))
    #expect(socket.receive() == "EXTEND_TIMEOUT_USEC=1500000")
    #expect(notifier.send([("STATUS", "a"), ("MAINPID", "42")]))
    #expect(socket.receive() == "STATUS=a\nMAINPID=42")
  }

  @Test func statusIsMadeSingleLine() throws {
    let socket = try NotifySocket()
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": socket.address])
    notifier.status("line one\nREADY=1\r\nline three")
    #expect(socket.receive() == "STATUS=line one READY=1 line three")
  }

  @Test func keysThatAreNotPlainNamesAreRefused() throws {
    let socket = try NotifySocket()
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": socket.address])
    #expect(!notifier.send([("READY=1\nSTATUS", "x")]))
    #expect(!notifier.send([("", "x")]))
    #expect(!notifier.send([]))
    #expect(socket.receive(timeout: .zero) == nil)
  }

  #if os(Linux)
    @Test func theAbstractNamespace() throws {
      let socket = try NotifySocket(abstractName: "ripple-test-\(UUID().uuidString)")
      let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": socket.address])
      notifier.ready(status: "abstract")
      #expect(socket.receive() == "READY=1\nSTATUS=abstract")
    }
  #endif

  @Test func disabledWithoutNotifySocket() {
    let notifier = ServiceNotifier.live(environment: ["WATCHDOG_USEC": "30000000"])
    #expect(!notifier.isEnabled)
    #expect(notifier.watchdogInterval == nil)
    #expect(!notifier.send([("READY", "1")]))
    notifier.ready(status: "nobody listens")
    #expect(!ServiceNotifier.disabled.isEnabled)
    #expect(!ServiceNotifier.live(environment: ["NOTIFY_SOCKET": ""]).isEnabled)
    #expect(!ServiceNotifier.live(environment: ["NOTIFY_SOCKET": "vsock:2:1234"]).isEnabled)
  }

  @Test func aMissingSocketReturnsFalse() {
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": "/tmp/ripple-no-such-dir-\(UUID())/notify"])
    #expect(notifier.isEnabled)
    #expect(!notifier.send([("READY", "1")]))
    notifier.watchdog()
    #expect(!ServiceNotifier.live(environment: ["NOTIFY_SOCKET": "@ripple-nobody-\(UUID())"]).send([("A", "1")]))
  }

  @Test func aPathTooLongForSunPathReturnsFalse() {
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)])
    #expect(!notifier.send([("READY", "1")]))
  }

  /// Nobody reads: the queue fills and sends fail at once instead of blocking the daemon.
  @Test func aFullQueueNeverBlocks() throws {
    let socket = try NotifySocket()
    let notifier = ServiceNotifier.live(environment: ["NOTIFY_SOCKET": socket.address])
    let start = ContinuousClock.now
    let results = (0..<200).map { _ in notifier.send([("STATUS", String(repeating: "x", count: 1000))]) }
    #expect(results.first == true)
    #expect(results.contains(false))
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
    let pid = getpid()
    let socket = ["NOTIFY_SOCKET": "/run/systemd/notify"]
    func interval(_ extra: [String: String]) -> Duration? {
      ServiceNotifier.live(environment: socket.merging(extra) { $1 }, processID: pid).watchdogInterval
    }
    #expect(interval(["WATCHDOG_USEC": "30000000"]) == .seconds(15))
    #expect(interval(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(pid)"]) == .seconds(15))
    #expect(interval(["WATCHDOG_USEC": "1001"]) == .microseconds(500))
    #expect(interval(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(pid + 1)"]) == nil)
    #expect(interval(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "not-a-pid"]) == nil)
    #expect(interval(["WATCHDOG_USEC": "0"]) == nil)
    #expect(interval(["WATCHDOG_USEC": "soon"]) == nil)
    #expect(interval([:]) == nil)
  }

  @Test func serviceVariablesListsWhatChildrenMustNotInherit() {
    #expect(
      Set(ServiceNotifier.serviceVariables)
        == ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"])
  }
}
