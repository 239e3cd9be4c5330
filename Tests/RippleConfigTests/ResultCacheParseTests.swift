import ConfigLoading
import Foundation
import RippleConfig
import RippleCore
import Testing

/// `test.resultCache`: every store form, the trust keys, and each bad input a config error at its line and column.
@Suite struct ResultCacheParseTests {
  private func parse(_ body: String) throws -> ResultCacheConfig {
    try ConfigLoader.parse("test:\n  resultCache:" + body, path: "/repo/ripple.yml").test.resultCache
  }

  private let publicKey = Data(repeating: 7, count: 32).base64EncodedString()

  @Test func offOnAndTheDefault() throws {
    #expect(try parse(" off\n").enabled == false)
    #expect(try parse(" on\n").enabled == true)
    #expect(try parse(" on\n").store == .local(path: nil))
    #expect(try parse(" \"off\"\n").enabled == false)
    #expect(try parse("\n").enabled == true)
    let absent = try ConfigLoader.parse("test: {}\n", path: "ripple.yml").test.resultCache
    #expect(absent.enabled && absent.store == .local(path: nil))
    #expect(absent.maxSize == ResultCacheConfig.defaultMaxSize && absent.protectedBranches == nil)
  }

  @Test func localStores() throws {
    #expect(try parse("\n    store: local\n").store == .local(path: nil))
    #expect(try parse("\n    store: /var/cache/records\n").store == .local(path: "/var/cache/records"))
    // Relative to the config file's folder (the repository root).
    #expect(try parse("\n    store: ./.records\n").store == .local(path: "/repo/.records"))
    let home = FileManager.default.homeDirectoryForCurrentUser.path
    #expect(try parse("\n    store: ~/records\n").store == .local(path: home + "/records"))
  }

  @Test func s3Stores() throws {
    let config = try parse(
      """

          store: s3://team-records/ripple/pass
          region: eu-west-1
      """)
    #expect(
      config.store
        == .s3(
          S3Location(
            endpoint: "https://s3.eu-west-1.amazonaws.com", bucket: "team-records", key: "ripple/pass",
            region: "eu-west-1", pathStyle: false),
          credentials: .awsEnvironment(
            accessKeyVariable: "AWS_ACCESS_KEY_ID", secretKeyVariable: "AWS_SECRET_ACCESS_KEY",
            sessionTokenVariable: "AWS_SESSION_TOKEN")))
    let minio = try parse(
      """

          store: s3://records
          region: us-east-1
          endpoint: http://127.0.0.1:9000
          pathStyle: true
          credentials: {aws: {accessKeyEnv: MINIO_KEY, secretKeyEnv: MINIO_SECRET}}
      """)
    #expect(
      minio.store
        == .s3(
          S3Location(
            endpoint: "http://127.0.0.1:9000", bucket: "records", key: "", region: "us-east-1", pathStyle: true),
          credentials: .awsEnvironment(
            accessKeyVariable: "MINIO_KEY", secretKeyVariable: "MINIO_SECRET", sessionTokenVariable: nil)))
  }

  @Test func bazelStores() throws {
    #expect(
      try parse("\n    store: bazel+https://cache.example/ripple\n").store
        == .bazelHTTP(url: "https://cache.example/ripple", credentials: .none))
    #expect(
      try parse("\n    store: bazel+http://10.0.0.5:8080\n    credentials: {netrc: true}\n").store
        == .bazelHTTP(url: "http://10.0.0.5:8080", credentials: .netrc(path: nil)))
    #expect(
      try parse(
        "\n    store: https://cache.example\n    protocol: bazel\n    credentials: {bearerTokenEnv: CACHE_TOKEN}\n"
      ).store == .bazelHTTP(url: "https://cache.example", credentials: .bearerTokenEnvironment(variable: "CACHE_TOKEN"))
    )
  }

  @Test func rippledStores() throws {
    #expect(
      try parse("\n    store: rippled+https://ripple.example\n    tokenEnv: RIPPLED_RECORDS_TOKEN\n").store
        == .rippled(url: "https://ripple.example", tokenVariable: "RIPPLED_RECORDS_TOKEN"))
    #expect(
      try parse("\n    rippled: https://ripple.example:7878\n").store
        == .rippled(url: "https://ripple.example:7878", tokenVariable: nil))
    #expect(
      try parse("\n    store: https://ripple.example\n    protocol: rippled\n").store
        == .rippled(url: "https://ripple.example", tokenVariable: nil))
  }

  @Test func theOtherKeys() throws {
    let config = try parse(
      """

          maxSize: 512MiB
          timeout: 2.5
          keyEnvironment: [CI_SDK_VERSION, XCODE_VERSION]
          publicKeys:
            - {name: ci-main, key: "\(publicKey)"}
          protectedBranches: [main, release/*]
          signingKeyEnv: RIPPLE_SIGNING_KEY
          unsignedRecords: any
      """)
    #expect(config.maxSize == 512 << 20)
    #expect(config.timeout == 2.5)
    #expect(config.keyEnvironment == ["CI_SDK_VERSION", "XCODE_VERSION"])
    #expect(config.publicKeys == [TrustedPublicKey(name: "ci-main", base64: publicKey)])
    #expect(config.protectedBranches == ["main", "release/*"])
    #expect(config.signingKeyVariable == "RIPPLE_SIGNING_KEY")
    #expect(config.unsignedFrom == .anyStore)
    #expect(try parse("\n    maxSize: 2GiB\n").unsignedFrom == .privateStore, "the default: a private store only")
    #expect(config.location?.line == 3)  // the mapping's first key
    #expect(try parse("\n    maxSize: 2GiB\n    timeout: 30s\n").maxSize == 2 << 30)
    #expect(try parse("\n    timeout: 500ms\n").timeout == 0.5)
    #expect(try parse("\n    maxSize: 1048576\n").maxSize == 1 << 20)
  }

  @Test(arguments: [
    ("    stroe: local\n", 3, 5, "unknown key `stroe` (did you mean `store`?)"),
    ("    publicKeys: [{name: ci, key: \"c2hvcnQ=\"}]\n", 3, 34, "is 5 bytes, not an Ed25519 public key's 32"),
    ("    publicKeys: [{name: ci, key: \"not base64!\"}]\n", 3, 34, "is not base64"),
    ("    maxSize: 12XB\n", 3, 14, "`12XB` is not a size: unknown unit `XB`"),
    ("    store: s3:///prefix\n    region: eu-west-1\n", 3, 12, "`s3:///prefix` names no bucket"),
    ("    keyEnvironment: [CI_SDK, 1BAD-NAME]\n", 3, 30, "`1BAD-NAME` is not an environment variable name"),
    ("    store: s3://bucket\n", 3, 12, "an s3 store needs a `region`"),
    ("    store: https://cache.example\n", 3, 12, "needs `protocol: bazel` or `protocol: rippled`"),
    ("    store: ftp://user:pw@host/x\n", 3, 12, "`ftp://…` is not a store"),
    ("    store: records\n", 3, 12, "`records` is not a store"),
    ("    store: bazel+https://cache.example\n    region: eu-west-1\n", 4, 13, "`region` applies only to an s3 store"),
    ("    store: local\n    tokenEnv: TOKEN\n", 4, 15, "`tokenEnv` applies only to a rippled store"),
    (
      "    store: bazel+https://c.example\n    credentials: {aws: {accessKeyEnv: A, secretKeyEnv: B}}\n", 4, 18,
      "AWS credentials apply to an s3 store"
    ),
    ("    store: local\n    rippled: https://r.example\n", 4, 14, "give `store` or `rippled`, not both"),
    ("    timeout: 0\n", 3, 14, "a timeout must be more than 0"),
    ("    protectedBranches: [\"release/[\"]\n", 3, 25, "invalid branch glob"),
    ("    signingKeyEnv: \"my secret\"\n", 3, 20, "is not an environment variable name"),
    ("    unsignedRecords: everywhere\n", 3, 22, "expected private or any"),
    (
      "    publicKeys: [{name: a, key: \"\(Data(count: 32).base64EncodedString())\"}, {name: a, key: \"\(Data(count: 32).base64EncodedString())\"}]\n",
      3, 89, "used twice"
    ),
  ])
  func badInputIsAConfigErrorAtItsLineAndColumn(body: String, line: Int, column: Int, message: String) throws {
    let error = try failure("test:\n  resultCache:\n" + body)
    #expect(error.description.contains(message), "\(error.description)")
    #expect(error.description.hasPrefix("ripple.yml:\(line):\(column): "), "\(error.description)")
  }

  @Test func aScalarThatIsNotOnOrOffIsAnError() throws {
    let error = try failure("test:\n  resultCache: sometimes\n")
    #expect(error.description.hasPrefix("ripple.yml:2:16: test.resultCache: expected on, off or a mapping"))
  }

  @Test func aStoreURLWithCredentialsIsNeverQuotedInAnError() throws {
    let error = try failure("test:\n  resultCache:\n    store: bazel+gopher://alice:s3cret@host/?token=abc\n")
    #expect(!error.description.contains("s3cret") && !error.description.contains("abc"))
  }
}
