import RippleCore
import Testing

/// `Redaction`: the one place URLs and quoted tool output are made safe to print (issue 39, item 11).
@Suite struct RedactionTests {
  @Test func aURLLosesItsUserinfoQueryAndFragment() {
    #expect(Redaction.url("https://u:p@host:8443/a/b?sig=x#frag") == "https://host:8443/a/b")
    #expect(Redaction.url("https://host/a?X-Amz-Signature=abc") == "https://host/a")
    #expect(Redaction.url("https://host/a@b") == "https://host/a@b")
    #expect(Redaction.origin("https://u:p@host:8443/t0ken/a?sig=x") == "https://host:8443")
    #expect(
      Redaction.text("GET https://h/x?token=abc failed with key s3cr3tvalue", secrets: ["s3cr3tvalue"])
        == "GET https://h/x failed with key ***")
  }

  /// A `urlCommand`'s stderr: a query string without a scheme in front is still a query string.
  @Test func aQueryStringWithoutASchemeIsDropped() {
    #expect(
      Redaction.text("error: GET /v1/sign?token=tok3n&exp=1 returned 403")
        == "error: GET /v1/sign returned 403")
    #expect(Redaction.text("what? no = sign here") == "what? no = sign here", "a question is no query")
  }

  /// git's and git-lfs's errors quote the remote, with the token GitHub Actions puts in it, with or without the
  /// scheme; `lfs.url` may hold `user:password@`.
  @Test func userinfoIsDroppedFromRemotesInToolOutput() {
    let git =
      "fatal: unable to access 'https://x-access-token:ghs_T0KEN@github.com/o/r.git/': The requested URL returned 403"
    #expect(
      Redaction.text(git)
        == "fatal: unable to access 'https://github.com/o/r.git/': The requested URL returned 403")
    #expect(
      Redaction.text("batch request to x-access-token:ghs_T0KEN@github.com/o/r.git failed")
        == "batch request to github.com/o/r.git failed")
    #expect(
      Redaction.text("LFS: Endpoint=https://deploy:pa55word@lfs.example.com/r/info/lfs (auth=basic)")
        == "LFS: Endpoint=https://lfs.example.com/r/info/lfs (auth=basic)")
    #expect(Redaction.text("push to git@github.com:o/r.git") == "push to git@github.com:o/r.git", "no password")
  }

  @Test func whitespaceAndLinesAreKept() {
    #expect(
      Redaction.text("line one https://u:p@h/a?s=1\n\tline two ?x=y") == "line one https://h/a\n\tline two ")
  }
}
