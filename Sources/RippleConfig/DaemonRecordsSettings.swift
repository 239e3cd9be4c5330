/// `records:` in rippled.yml: rippled as the team's store of pass records (docs/DESIGN.md, "Pass records").
/// `GET /api/v1/records/{key}` takes the read or the write token, `PUT` only the write token; without a
/// read token file the API answers 404 (the store is off for others; rippled's own runs still use it).
public struct RecordsSettings: Sendable, Hashable {
  /// The section is present: rippled's own runs read and write pass records (in its store).
  public var enabled = false
  /// The token of readers (every CI job, laptops): it cannot write.
  public var readTokenFile: String?
  /// The token of writers (CI jobs): it also reads.
  public var writeTokenFile: String?
  /// rippled's own runs of protected branches sign their records with this key (base64 of 32 bytes).
  public var signingKeyFile: String?
  /// The store's bound; the least recently used records go first.
  public var maxBytes: Int64 = 1 << 30

  public init(
    readTokenFile: String? = nil, writeTokenFile: String? = nil, signingKeyFile: String? = nil,
    maxBytes: Int64 = 1 << 30
  ) {
    self.readTokenFile = readTokenFile
    self.writeTokenFile = writeTokenFile
    self.signingKeyFile = signingKeyFile
    self.maxBytes = maxBytes
  }
}
