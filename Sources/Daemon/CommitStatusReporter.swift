import DaemonSupport
import Foundation
import RippleConfig
import RippleCore
import RunModel

/// Posts runs' commit statuses to the forges, in the background: a forge that is down or refuses never
/// fails or delays a run. Per repository, statuses go out in order (a run's `pending` before its end).
/// Network errors and 5xx are retried with backoff; a refusal (401, 403, 404, 422) is logged once per
/// repository and answer, naming the repository and the forge, never the token.
actor CommitStatusReporter {
  typealias Send = HTTPDelivery.Send

  private let repositories: [String: CommitStatusSettings]
  private let publicURL: String?
  private let log: DaemonLog
  private let send: Send
  private let retryDelays: [Duration]
  private let queue = DeliveryQueue()
  private var reported: Set<String> = []

  init(
    repositories: [RepositorySettings], publicURL: String?, log: DaemonLog,
    send: @escaping Send = CommitStatusReporter.liveSend,
    retryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(30)]
  ) {
    self.repositories = Dictionary(
      repositories.compactMap { repository in repository.status.map { (repository.name, $0) } },
      uniquingKeysWith: { first, _ in first })
    self.publicURL = publicURL
    self.log = log
    self.send = send
    self.retryDelays = retryDelays
  }

  nonisolated func started(_ run: RunRecord) {
    post(run, CommitStatus.started(run, publicURL: publicURL))
  }

  nonisolated func finished(_ run: RunRecord) {
    guard let status = CommitStatus.finished(run, publicURL: publicURL) else { return }
    post(run, status)
  }

  /// In call order per repository (`DeliveryQueue`): a run's `pending` always goes out before its end.
  private nonisolated func post(_ run: RunRecord, _ status: CommitStatus) {
    guard let settings = repositories[run.repository] else { return }
    queue.submit(key: run.repository) {
      await self.deliver(status, commit: run.head, repository: run.repository, settings: settings)
    }
  }

  /// Waits until every status posted before this call was delivered or given up (tests, shutdown).
  func drain() async { await queue.drain() }

  private func deliver(
    _ status: CommitStatus, commit: String, repository: String, settings: CommitStatusSettings
  ) async {
    let forge = "\(settings.provider.rawValue) (\(settings.api), \(settings.repository))"
    guard let token = Self.token(settings.tokenFile) else {
      once(
        "\(repository):token",
        "cannot post commit statuses of \(repository) to \(forge): the token file \(settings.tokenFile) is missing or empty"
      )
      return
    }
    let request = status.request(for: settings, commit: commit, token: token)
    switch await HTTPDelivery.post(request, send: send, retryDelays: retryDelays) {
    case .delivered:
      reported = reported.filter { !$0.hasPrefix(repository + ":") }
    case .refused(let code):
      once(
        "\(repository):\(code)",
        "\(forge) refused the commit status for \(repository) with \(code): "
          + Self.meaning(code) + "; no status is posted until that is fixed (checked on every run)")
    case .gaveUp(let problem):
      log.warning("commit status of \(repository) at \(String(commit.prefix(10))) not posted: \(forge) \(problem)")
    }
  }

  private func once(_ key: String, _ message: String) {
    guard reported.insert(key).inserted else { return }
    log.error(message)
  }

  static func meaning(_ code: Int) -> String {
    switch code {
    case 401: "the token is not valid (tokenFile)"
    case 403: "the token may not write statuses of this repository"
    case 404: "the repository or commit is unknown to the forge, or the token cannot see it"
    case 422: "the forge rejected the status (unknown commit, or too many statuses for it)"
    default: "unexpected answer"
    }
  }

  static func token(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return token.isEmpty ? nil : token
  }

  /// A token file others can read: a warning at start (the daemon still uses it).
  static func tokenFileWarnings(_ repositories: [RepositorySettings]) -> [String] {
    repositories.compactMap { repository in
      guard let path = repository.status?.tokenFile else { return nil }
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
        return "repository \(repository.name): the status token file \(path) does not exist; no statuses will be posted"
      }
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
      return mode & 0o004 != 0
        ? "repository \(repository.name): the status token file \(path) is readable by everyone; chmod 600 it" : nil
    }
  }

  static let liveSend: Send = HTTPDelivery.liveSend
}
