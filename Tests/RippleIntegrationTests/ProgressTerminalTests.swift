import Foundation
import TestSupport
import Testing

/// `ripple test`'s build progress as a person sees it (issue 43): in a real terminal (a tmux pane, read with
/// `capture-pane` while SwiftPM compiles) one status line that updates in place with SwiftPM's `[n/N]` steps,
/// and in a CI log (no terminal) plain `Building …: [n/N]` lines. scripts/install-deps.sh --test installs tmux.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct ProgressTerminalTests {
  /// A package whose build takes a few seconds: several files to compile before the tests run.
  static func makeRepository() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "Slow",
        targets: [.target(name: "Slow"), .testTarget(name: "SlowTests", dependencies: ["Slow"])]
      )

      """)
    for index in 0..<12 {
      try repo.write(
        "Sources/Slow/Part\(index).swift",
        "public struct Part\(index): Sendable {\n  public var values: [Int] = Array(0..<\(index + 8))\n"
          + "  public init() {}\n  public func sum() -> Int { values.map { $0 * \(index + 1) }.reduce(0, +) }\n}\n")
    }
    try repo.write(
      "Tests/SlowTests/SlowTests.swift",
      "import Slow\nimport Testing\n\n@Test func sums() {\n  #expect(Part0().sum() == 28)\n}\n")
    try repo.write(".gitignore", ".build/\n")
    _ = try repo.commitAll("initial")
    return repo
  }

  /// SwiftPM's `[n/N]` step.
  static func hasStep(_ line: some StringProtocol) -> Bool { String(line).contains(#/\[\d+/\d+\]/#) }

  /// Linux: the start closes inherited descriptors through /proc (below).
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "reads /proc/self/fd"))
  func aTerminalShowsOneUpdatingProgressLineWhileSwiftPMBuilds() throws {
    let repo = try Self.makeRepository()
    let socket = "ripple-progress-\(getpid())"
    func tmux(_ arguments: [String]) throws -> CommandResult {
      try run(["tmux", "-L", socket] + arguments, check: false)
    }
    // Its session, then the server: `kill-server` alone left this server running (the session gone, the server
    // exits as it has none).
    defer {
      _ = try? tmux(["kill-session", "-t", "0"])
      _ = try? tmux(["kill-server"])
    }
    let environment = [
      "RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory, "RIPPLE_NO_CACHE_RESULTS": "1", "NO_COLOR": "1",
    ]
    let command =
      "cd \(shellQuoted(repo.root)) && env "
      + environment.sorted { $0.key < $1.key }.map { shellQuoted("\($0.key)=\($0.value)") }.joined(separator: " ")
      + " "
      + ([RippleBinary.path, "test"] + RippleBinary.testArguments(["--all"])).map(shellQuoted).joined(
        separator: " ")
      + "; echo \"ripple-exit=$?\""
    // The pane stays on screen after the command ends (remain-on-exit) with nothing left running in it: a
    // `sleep` that kept it open outlived `kill-server` and the server with it, for ten minutes.
    // The server tmux forks keeps what it was started with: Foundation's Process gives the child a socket of its
    // own (not close-on-exec) and waits until every holder closes it, so with the server holding it the start
    // never returns. The streams and every inherited descriptor are closed first.
    let closeInherited = "for fd in $(ls /proc/$$/fd); do [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done; "
    let started = try run(
      [
        "bash", "-c",
        closeInherited + "exec tmux -L \(socket) -f /dev/null start-server \\; set-option -g remain-on-exit on \\; "
          + "new-session -d -x 100 -y 40 \(shellQuoted(command))"
          + " </dev/null >/dev/null 2>&1",
      ], check: false)
    try #require(started.status == 0, "\(started.standardError)")

    // Read the pane until the command says how it exited: every screen while it builds and tests.
    var screens: [[String]] = []
    let deadline = Date().addingTimeInterval(600)
    while Date() < deadline {
      let pane = try tmux(["capture-pane", "-p", "-t", "0"])
      let lines = pane.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      screens.append(lines)
      if lines.contains(where: { $0.hasPrefix("ripple-exit=") }) { break }
      usleep(50_000)
    }
    let last = try #require(screens.last)
    #expect(last.contains("ripple-exit=0"), "\(last.joined(separator: "\n"))")
    // While it built, a screen showed SwiftPM's steps on the status line…
    let building = screens.filter { screen in
      screen.contains { $0.contains("building") && Self.hasStep($0) }
    }
    #expect(!building.isEmpty, "no screen showed `building … [n/N]`: \(last.joined(separator: "\n"))")
    // …one line at a time: the steps replaced each other instead of scrolling the terminal.
    for screen in screens {
      let steps = screen.filter { Self.hasStep($0) }
      #expect(steps.count <= 1, "several progress lines at once:\n\(screen.joined(separator: "\n"))")
    }
    // Once done, the status line is gone and the package's result stays.
    #expect(!last.contains { Self.hasStep($0) }, "\(last.joined(separator: "\n"))")
    #expect(last.contains { $0.contains("1 passed, 0 failed") }, "\(last.joined(separator: "\n"))")
    #expect(
      screens.contains { $0.contains("Testing every test target of 1 package") }, "\(last.joined(separator: "\n"))")
  }

  /// Without a terminal (a CI log), the steps are plain lines: at most one per tenth of the build or 10 s.
  @Test func aCILogGetsPlainBuildProgressLines() throws {
    let repo = try Self.makeRepository()
    let result = try RippleBinary.test(["--all", "--progress", "plain"], in: repo.root)
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    let output = result.standardOutput + result.standardError
    let steps = output.split(separator: "\n").filter { $0.hasPrefix("Building ") && Self.hasStep($0) }
    #expect(!steps.isEmpty, "\(output)")
    // One per tenth of the build, and one per 10 s at most (a loaded machine may take a minute): never one per step.
    #expect(steps.count <= 17, "\(steps)")
    #expect(!output.contains("\r"), "nothing is overwritten in a log")
  }

  private func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
