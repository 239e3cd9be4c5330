import Testing

@testable import ResultStoreLive

/// A store is shown by its scheme and host: a path (or userinfo, or query) can hold a token.
@Suite struct StoreURLDisplayTests {
  @Test func aStoreURLShowsItsSchemeAndHostOnly() throws {
    let url = try #require(StoreURL("https://user:pw@cache.example:8443/t0ken-in-path/ac/?key=secret"))
    #expect(url.display == "https://cache.example:8443")
    #expect(url.base == "https://cache.example:8443/t0ken-in-path/ac", "requests still go to the path")
    #expect(StoreURL.shown("bazel+https://u:p@host.example/path-token") == "bazel+https://host.example")
    #expect(StoreURL.shown("not a url/path-token") == "not a url")
  }
}
