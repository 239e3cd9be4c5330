import ArgumentParser
import DaemonSources
import Foundation

/// Internal: one fetch in a process of its own, so the service can kill it at its deadline.
struct FetchMirror: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch-mirror", abstract: "Internal: fetch every branch of a remote into a bare mirror.",
    shouldDisplay: false)
  @Option var mirror: String
  @Option var url: String
  @Option var timeoutMs: Int64 = 120_000

  func run() async throws {
    let report = try FetchReport.fetch(mirror: mirror, url: url, timeout: .milliseconds(timeoutMs))
    FileHandle.standardOutput.write(try report.encoded())
  }
}
