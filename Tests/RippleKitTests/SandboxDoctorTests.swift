import Foundation
import RippleKit
import SystemClients
import TestSupport
import Testing

@Suite struct SandboxDoctorTests {
  #if os(Linux)
    @Test func doctorWarnsWhenBubblewrapIsMissingAndSaysWhatItMeans() async {
      var services = RippleServices.failing
      services.process =
        ScriptedProcess().on(.command("bwrap"), .fail(ProcessError.notFound(executable: "bwrap"))).client
      let check = await Doctor.sandbox(services)
      #expect(check.name == "sandbox")
      #expect(check.isWarning)
      #expect(check.detail.contains("bubblewrap (`bwrap`) is not installed"), "\(check.detail)")
      #expect(check.detail.contains("can write the daemon's state, cache"), "\(check.detail)")
      #expect(check.fix?.contains("apt-get install bubblewrap") == true)
    }

    /// Issue 39, item 8: the probe runs bwrap as runs use it, capabilities dropped, and says so.
    @Test func doctorSaysTheSandboxDropsEveryCapability() async {
      var services = RippleServices.failing
      let bwrap = ScriptedProcess().on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
        .on(.command("bwrap"), .exit(0))
      services.process = bwrap.client
      let check = await Doctor.sandbox(services)
      #expect(!check.isWarning && check.detail.contains("no capabilities even when rippled runs as root"))
      #expect(bwrap.requests.last.map { $0.arguments.contains("--cap-drop") } == true, "\(bwrap.requests)")
      #expect(bwrap.requests.last.map { $0.arguments.contains("--unshare-net") } == true, "issue 39, item 10")
      #expect(check.detail.contains("a network of their own"))
    }
  #endif
}
