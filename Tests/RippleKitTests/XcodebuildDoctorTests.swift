import Foundation
import RippleConfig
import SystemClients
import TestSupport
import Testing

@testable import RippleKit

/// `ripple doctor` on a `runner: xcodebuild` run: planned only off macOS, else whether xcodebuild answers.
@Suite struct XcodebuildDoctorTests {
  static let run = TestRunSpec(
    name: "ios", platforms: [.macos], runner: .xcodebuild,
    xcodebuild: XcodebuildRunSpec(scheme: "MyApp", destination: "platform=macOS"))

  @Test func onLinuxTheRunIsAWarningThatItIsOnlyPlanned() async {
    let check = await Doctor.xcodebuildRun(Self.run, host: .linux, process: .failing)
    #expect(check.ok && check.isWarning)
    #expect(check.detail.hasPrefix("planned only: it runs on macos, this host is linux"))
  }

  @Test func onMacOSXcodebuildMustAnswer() async {
    let answering = ScriptedProcess()
      .on(.command("xcodebuild", "-version"), .exit(0, stdout: "Xcode 16.2\nBuild version 16C5032a\n"))
    let check = await Doctor.xcodebuildRun(Self.run, host: .macos, process: answering.client)
    #expect(check.ok && check.detail == "Xcode 16.2")
    #expect(answering.requests.map(\.arguments) == [["-version"]])

    let missing = ScriptedProcess().on(.command("xcodebuild"), .fail(ProcessError.notFound(executable: "xcodebuild")))
    let failed = await Doctor.xcodebuildRun(Self.run, host: .macos, process: missing.client)
    #expect(!failed.ok)
    #expect(failed.fix?.contains("xcode-select") == true)
  }
}
