import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tells systemd how the service is doing (the `sd_notify` protocol, written directly: no libsystemd).
///
/// systemd passes `$NOTIFY_SOCKET` to a `Type=notify` service: an AF_UNIX datagram socket (a path, or
/// `@name` in the abstract namespace). Each message is one datagram of `KEY=value` lines. With
/// `WatchdogSec=` it also passes `$WATCHDOG_USEC`, and the service must send `WATCHDOG=1` more often than
/// that or be restarted. Outside systemd (no `$NOTIFY_SOCKET`) every call does nothing.
///
/// Sends never block (`MSG_DONTWAIT`) and never throw: a failed notification is reported as `false` and
/// must not take the daemon down. A socket is opened per message, which keeps the value `Sendable` with
/// no descriptor to own; notifications are rare (start, stop, a watchdog ping every few seconds).
public struct ServiceNotifier: Sendable {
  public var isEnabled: Bool
  /// Half of `$WATCHDOG_USEC` when set (and `$WATCHDOG_PID` is unset or equals this process's id), so a
  /// ping every interval is twice as often as systemd requires; nil otherwise, and when disabled.
  public var watchdogInterval: Duration?
  /// `$NOTIFY_SOCKET` as systemd gave it: an absolute path, or `@name` (abstract namespace, Linux).
  public var socketPath: String?

  public init(socketPath: String?, watchdogInterval: Duration? = nil) {
    self.socketPath = socketPath
    self.isEnabled = socketPath != nil
    self.watchdogInterval = socketPath == nil ? nil : watchdogInterval
  }

  /// From the service's environment: enabled when `$NOTIFY_SOCKET` is an absolute path or `@name` (the
  /// `vsock:` form of newer systemd is not supported: disabled).
  public static func live(
    environment: [String: String] = ProcessInfo.processInfo.environment, processID: Int32 = getpid()
  ) -> ServiceNotifier {
    guard let socket = environment["NOTIFY_SOCKET"], socket.hasPrefix("/") || socket.hasPrefix("@") else {
      return .disabled
    }
    return ServiceNotifier(
      socketPath: socket, watchdogInterval: watchdogInterval(environment: environment, processID: processID))
  }

  public static let disabled = ServiceNotifier(socketPath: nil)

  /// Variables a child process must not inherit: a test run that found `$NOTIFY_SOCKET` could tell
  /// systemd the daemon is ready or stopping, and `LISTEN_*` would hand it the daemon's sockets.
  public static let serviceVariables = [
    "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
  ]

  /// Sends `KEY=value` lines as one datagram. Values are made single-line (a line break would start a
  /// new assignment). Returns false when disabled, when a key is not a plain name, or when the message
  /// cannot be sent (no listener, queue full, path too long).
  @discardableResult
  public func send(_ assignments: [(String, String)]) -> Bool {
    guard isEnabled, let socketPath, !assignments.isEmpty else { return false }
    var lines: [String] = []
    for (key, value) in assignments {
      guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }) else {
        return false
      }
      lines.append("\(key)=\(Self.singleLine(value))")
    }
    return Self.sendDatagram(Array(lines.joined(separator: "\n").utf8), to: socketPath)
  }

  /// Start-up is complete: systemd considers the service started (and starts what waits for it).
  public func ready(status: String) {
    send([("READY", "1"), ("STATUS", status)])
  }

  /// Free-form status shown by `systemctl status rippled`.
  public func status(_ text: String) {
    send([("STATUS", text)])
  }

  /// Keep-alive ping; send one every `watchdogInterval`.
  public func watchdog() {
    send([("WATCHDOG", "1")])
  }

  /// Shutdown has begun.
  public func stopping(status: String) {
    send([("STOPPING", "1"), ("STATUS", status)])
  }

  /// Asks for more time to finish starting or stopping, counted from now (`EXTEND_TIMEOUT_USEC`).
  public func extendTimeout(_ duration: Duration) {
    send([("EXTEND_TIMEOUT_USEC", String(Self.microseconds(duration)))])
  }

  static func watchdogInterval(environment: [String: String], processID: Int32) -> Duration? {
    guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else {
      return nil
    }
    if let pid = environment["WATCHDOG_PID"], Int32(pid) != processID { return nil }
    return .microseconds(microseconds / 2)
  }

  static func microseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
    return overflow ? Int64.max : whole + attoseconds / 1_000_000_000_000
  }

  static func singleLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 }.filter { $0 != "\0" })
  }

  /// One datagram to the socket at `path` (`@name`: abstract namespace), without blocking.
  static func sendDatagram(_ message: [UInt8], to path: String) -> Bool {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var pathBytes = Array(path.utf8)
    let isAbstract = pathBytes.first == UInt8(ascii: "@")
    if isAbstract {
      #if os(Linux)
        pathBytes[0] = 0  // the abstract namespace: a leading NUL, and no terminating one
      #else
        return false
      #endif
    }
    let terminator = isAbstract ? 0 : 1
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard pathBytes.count > 1, pathBytes.count + terminator <= capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
    let length = socklen_t(pathOffset + pathBytes.count + terminator)
    #if canImport(Darwin)
      address.sun_len = UInt8(length)
    #endif

    let descriptor = openDatagramSocket()
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    #if os(Linux)
      let flags = Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)
    #else
      let flags = Int32(MSG_DONTWAIT)
    #endif
    while true {
      let sent = message.withUnsafeBytes { bytes in
        withUnsafePointer(to: &address) { pointer in
          pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            sendto(descriptor, bytes.baseAddress, bytes.count, flags, $0, length)
          }
        }
      }
      if sent >= 0 { return sent == message.count }
      if errno != EINTR { return false }
    }
  }

  /// A close-on-exec AF_UNIX datagram socket (children started meanwhile must not inherit it), or -1.
  private static func openDatagramSocket() -> Int32 {
    #if canImport(Glibc)
      return socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #elseif os(Linux)
      return socket(AF_UNIX, Int32(SOCK_DGRAM) | Int32(SOCK_CLOEXEC), 0)
    #else
      let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
      if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      return descriptor
    #endif
  }
}
