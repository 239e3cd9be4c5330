import Foundation
import RippleConfig
import Testing

@testable import AssetFetch

@Suite("SigV4 signing and S3 addressing")
struct SigV4Tests {
  /// The GET-object example of the S3 SigV4 documentation ("Authenticating Requests: Using the
  /// Authorization Header", example: GET Object).
  @Test func matchesTheDocumentedGetObjectExample() {
    let signer = SigV4Signer(
      credentials: AWSCredentials(
        accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
      region: "us-east-1")
    let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
    let headers = signer.sign(
      canonicalURI: "/test.txt", headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"],
      date: date, payloadHash: SigV4Signer.emptyPayloadHash)
    #expect(headers["x-amz-date"] == "20130524T000000Z")
    #expect(
      headers["authorization"]
        == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
        + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
  }

  @Test func sessionTokenIsSentAndSigned() {
    let signer = SigV4Signer(
      credentials: AWSCredentials(accessKey: "AKIA", secretKey: "secret", sessionToken: "session"), region: "eu-west-1")
    let headers = signer.sign(canonicalURI: "/k", headers: ["host": "b.s3.amazonaws.com"], date: Date())
    #expect(headers["x-amz-security-token"] == "session")
    #expect(headers["x-amz-content-sha256"] == "UNSIGNED-PAYLOAD")
    #expect(
      headers["authorization"]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,")
        == true)
  }

  @Test func keysAreEncodedPerSegment() {
    #expect(SigV4Signer.encodePath("fonts/Mono Regular+1.ttf") == "fonts/Mono%20Regular%2B1.ttf")
    #expect(SigV4Signer.encodePath("a/b~c_d-e.f/ü") == "a/b~c_d-e.f/%C3%BC")
    #expect(SigV4Signer.encodeSegment("a/b") == "a%2Fb")
  }

  @Test func pathStyleAndVirtualHostAddressing() throws {
    let path = try #require(
      S3ObjectAddress(
        S3Location(
          endpoint: "http://127.0.0.1:5000", bucket: "assets", key: "a b/c.zip", region: "us-east-1", pathStyle: true)))
    #expect(path.url == "http://127.0.0.1:5000/assets/a%20b/c.zip")
    #expect(path.canonicalURI == "/assets/a%20b/c.zip")
    let virtual = try #require(
      S3ObjectAddress(
        S3Location(
          endpoint: "https://s3.eu-west-1.amazonaws.com", bucket: "assets", key: "/c.zip", region: "eu-west-1",
          pathStyle: false)))
    #expect(virtual.url == "https://assets.s3.eu-west-1.amazonaws.com/c.zip")
    #expect(virtual.canonicalURI == "/c.zip")
    #expect(virtual.displayName == "s3://assets/c.zip")
    #expect(
      S3ObjectAddress(S3Location(endpoint: "nonsense", bucket: "b", key: "k", region: "r", pathStyle: true)) == nil)
  }

  @Test func s3ErrorBodiesAreClassified() throws {
    let denied = try #require(
      S3ErrorBody("<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code><Message>nope</Message></Error>"))
    #expect(denied.isAccessProblem && !denied.isNotFound)
    let missing = try #require(S3ErrorBody("<Error><Code>NoSuchKey</Code></Error>"))
    #expect(missing.isNotFound && !missing.isAccessProblem)
    #expect(S3ErrorBody("not xml") == nil)
  }
}
