import ConfigLoading
import Foundation
import RippleConfig
import Testing

@Suite("rippled.yml records:")
struct DaemonRecordsConfigTests {
  let path = "/etc/ripple/rippled.yml"
  let repositories = "repositories:\n  - {name: a, remote: /srv/git/a.git}\n"

  @Test func theSectionTurnsRecordsOnWithItsTokensKeyAndBound() throws {
    let none = try DaemonConfigLoader.parse(repositories, path: path)
    #expect(!none.records.enabled)
    let config = try DaemonConfigLoader.parse(
      "records:\n  readTokenFile: records-read.token\n  writeTokenFile: /etc/ripple/records-write.token\n"
        + "  signingKeyFile: signing.key\n  maxSize: 2GiB\n" + repositories, path: path)
    #expect(config.records.enabled)
    #expect(config.records.readTokenFile == "/etc/ripple/records-read.token")
    #expect(config.records.writeTokenFile == "/etc/ripple/records-write.token")
    #expect(config.records.signingKeyFile == "/etc/ripple/signing.key")
    #expect(config.records.maxBytes == 2 << 30)
    let empty = try DaemonConfigLoader.parse("records: {}\n" + repositories, path: path)
    #expect(empty.records.enabled && empty.records.readTokenFile == nil)
  }

  @Test func anUnknownKeyOrABadSizeIsAnErrorNamingIt() {
    #expect {
      try DaemonConfigLoader.parse("records:\n  writeTokenFle: w.token\n" + repositories, path: path)
    } throws: { error in
      let text = "\(error)"
      return text.contains("rippled.yml:2") && text.contains("writeTokenFle") && text.contains("writeTokenFile")
    }
    #expect {
      try DaemonConfigLoader.parse("records:\n  maxSize: 12XB\n" + repositories, path: path)
    } throws: { error in "\(error)".contains("rippled.yml:2") && "\(error)".contains("maxSize") }
  }
}
