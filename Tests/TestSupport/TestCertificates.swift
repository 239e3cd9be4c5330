import Foundation

/// A throwaway CA and a server certificate it signed, for 127.0.0.1 and localhost (the HTTPS test servers).
public struct TestCertificates: Sendable {
  public var caPath: String
  public var certificatePath: String
  public var keyPath: String
  /// A second, unrelated CA: trusting it must not make the server trusted.
  public var otherCAPath: String

  public static func make(in directory: String) throws -> TestCertificates {
    let openssl = try requireTool("openssl", install: "apt-get install openssl")
    let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    let caExtensions = [
      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    ]
    for name in ["ca", "other-ca"] {
      try run(
        openssl,
        ["req", "-x509"] + curve + [
          "-keyout", "\(name).key", "-out", "\(name).pem", "-days", "2", "-subj", "/CN=Ripple Test \(name)",
        ]
          + caExtensions, in: directory)
    }
    try run(
      openssl, ["req", "-new"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
      in: directory)
    let extensions = """
      subjectAltName=IP:127.0.0.1,DNS:localhost
      basicConstraints=CA:FALSE
      keyUsage=critical,digitalSignature
      extendedKeyUsage=serverAuth

      """
    try extensions.write(toFile: directory + "/server.ext", atomically: true, encoding: .utf8)
    try run(
      openssl,
      [
        "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "server.pem", "-days", "2", "-extfile", "server.ext",
      ], in: directory)
    return TestCertificates(
      caPath: directory + "/ca.pem", certificatePath: directory + "/server.pem", keyPath: directory + "/server.key",
      otherCAPath: directory + "/other-ca.pem")
  }

  private static func run(_ executable: String, _ arguments: [String], in directory: String) throws {
    let result = try Command.run([executable] + arguments, in: directory)
    guard result.status == 0 else { throw CommandFailure(argv: [executable] + arguments, result: result) }
  }
}
