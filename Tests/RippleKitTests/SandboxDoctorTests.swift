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
  #endif
}
