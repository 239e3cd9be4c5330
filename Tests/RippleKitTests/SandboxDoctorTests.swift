import Foundation
import RippleKit
import SystemClients
import Testing

@Suite struct SandboxDoctorTests {
  #if os(Linux)
    @Test func doctorWarnsWhenBubblewrapIsMissingAndSaysWhatItMeans() async {
      var services = RippleServices.failing
      services.process = ProcessClient { request in throw ProcessError.notFound(executable: request.executable) }
      let check = await Doctor.sandbox(services)
      #expect(check.name == "sandbox")
      #expect(check.isWarning)
      #expect(check.detail.contains("bubblewrap (`bwrap`) is not installed"), "\(check.detail)")
      #expect(check.detail.contains("can write the daemon's state, cache"), "\(check.detail)")
      #expect(check.fix?.contains("apt-get install bubblewrap") == true)
    }
  #endif
}
