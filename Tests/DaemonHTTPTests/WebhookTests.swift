import Foundation
import Hummingbird
import RippleCore
import Testing

@testable import DaemonHTTP
@testable import DaemonSupport

@Suite("webhook signatures and remote URLs")
struct WebhookTests {
  let secret = Array("It's a Secret to Everybody".utf8)
  let body = Array("Hello, World!".utf8)

  @Test func githubsDocumentedExampleVerifies() {
    // From GitHub's "Validating webhook deliveries" documentation.
    let header = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    #expect(WebhookVerifier.verify(signatureHeader: header, body: body, secret: secret))
    #expect(WebhookVerifier.signature(body: body, secret: secret) == header)
  }

  @Test func forgedMissingOrMalformedSignaturesFail() {
    let good = WebhookVerifier.signature(body: body, secret: secret)
    #expect(!WebhookVerifier.verify(signatureHeader: good, body: body + [0x20], secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: good, body: body, secret: Array("other".utf8)))
    #expect(!WebhookVerifier.verify(signatureHeader: nil, body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: "sha1=" + good.dropFirst(7), body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: "sha256=zz", body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: String(good.dropLast(2)), body: body, secret: secret))
    #expect(!WebhookVerifier.verify(signatureHeader: good, body: body, secret: []))
  }

  @Test func remoteURLsCompareTheWayPeopleWriteThem() {
    let forms = [
      "https://github.com/pointfreeco/isowords.git", "https://GitHub.com/pointfreeco/isowords",
      "git@github.com:pointfreeco/isowords.git", "ssh://git@github.com/pointfreeco/isowords",
      "git://github.com/pointfreeco/isowords.git/",
    ]
    #expect(Set(forms.map(RemoteURL.normalized)) == ["github.com/pointfreeco/isowords"])
    #expect(RemoteURL.normalized("https://github.com/pointfreeco/Isowords") != RemoteURL.normalized(forms[0]))
    #expect(RemoteURL.normalized("/srv/git/app.git") == RemoteURL.normalized("/srv/git/app"))
    #expect(RemoteURL.normalized("https://host:8443/a/b.git") == "host:8443/a/b")
  }

  @Test func tokensCompareInConstantTimeAndExactly() {
    #expect(BearerAuthMiddleware<RippledRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
    #expect(!BearerAuthMiddleware<RippledRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
    #expect(!BearerAuthMiddleware<RippledRequestContext>.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
  }
}
