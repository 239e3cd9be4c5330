import Crypto
import Foundation
import PassRecords
import ResultStore
import RippleConfig
import RippleKit
import RunModel
import RunStore

/// Pass records of rippled's own runs (`records:` in rippled.yml; docs/DESIGN.md, "Pass records"): kept in
/// its store, the one `/api/v1/records` serves. The operator decides, not a branch's ripple.yml: which
/// branches are protected (rippled.yml's `protectedBranches`, else the primary branch), the signing key, and
/// that rippled's own key is trusted; a branch may still turn records off (`test.resultCache: off`).
public struct DaemonPassRecords: Sendable {
  /// Base64 of the private key protected-branch runs sign with; nil: rippled's records are unsigned.
  var signingKey: String?
  var maxBytes: Int64

  /// Reads `records.signingKeyFile`; a file that is not a key is an error naming it.
  static func load(_ settings: RecordsSettings) throws -> DaemonPassRecords? {
    guard settings.enabled else { return nil }
    var signingKey: String?
    if let path = settings.signingKeyFile {
      signingKey = try readSigningKey(path).rawRepresentation.base64EncodedString()
    }
    return DaemonPassRecords(signingKey: signingKey, maxBytes: settings.maxBytes)
  }

  /// The key in `records.signingKeyFile`, read as the key variable is (`SigningKeys.parsePrivateKey`: what
  /// `ripple results keygen --out` writes); `serve` and `check-config` both read it here.
  static func readSigningKey(_ path: String) throws -> Curve25519.Signing.PrivateKey {
    let key = "records.signingKeyFile"
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DaemonError.secretFile(path: path, key: key)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw DaemonError.signingKey(path: path, problem: "is not text (not UTF-8)")
    }
    switch SigningKeys.parsePrivateKey(text) {
    case .success(let privateKey): return privateKey
    case .failure(.empty): throw DaemonError.secretFile(path: path, key: key)
    case .failure(let problem): throw DaemonError.signingKey(path: path, problem: problem.description)
    }
  }

  /// `check-config`: reads the key as `serve` does; returns its public half (base64).
  public static func signingKeyPublicHalf(_ path: String) throws -> String {
    try readSigningKey(path).publicKey.rawRepresentation.base64EncodedString()
  }

  /// rippled's own public key, trusted by its runs whatever the branch's ripple.yml lists.
  var publicKey: TrustedPublicKey? {
    signingKey.flatMap(SigningKeys.privateKey(base64:)).map {
      TrustedPublicKey(name: "rippled", base64: $0.publicKey.rawRepresentation.base64EncodedString())
    }
  }

  func use(for run: RunRecord, settings: RepositorySettings) -> ResultCacheUse {
    let isProtected = RunIsolation.isProtected(run.branch, settings: settings)
    var use = ResultCacheUse(runLabel: "rippled run \(run.id)", branch: run.branch)
    // Git refuses `*` in branch names, so the branch itself is a pattern matching only itself.
    use.protectedBranches = isProtected ? [run.branch] : []
    use.signingKey = isProtected ? signingKey : nil
    use.trustedKeys = publicKey.map { [$0] } ?? []
    return use
  }

  /// The store as a `ResultStoreClient`, for the runs' `RippleServices`.
  func client(_ store: RunStore) -> ResultStoreClient {
    let maxBytes = maxBytes
    return ResultStoreClient(
      name: "rippled",
      load: { key in try store.passRecord(key.hex) },
      save: { key, data in try store.savePassRecord(key.hex, data, maxBytes: maxBytes) },
      saveChecked: { key, data, rule in
        let kept = try store.savePassRecord(key.hex, data, maxBytes: maxBytes) { existing in
          if case .keep(let reason) = rule.decide(existing: existing, replacement: data) { return reason }
          return nil
        }
        return kept.map { .keep(reason: $0) } ?? .replace
      })
  }
}
