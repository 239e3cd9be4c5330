import DaemonSupport
import Foundation
import RippleConfig
import RippleCore
import RunModel
import RunStore

/// The notification a run's end deserves, if any (pure; docs/DESIGN.md, "rippled.yml": `notify`): "failed"
/// when the branch's previous run that passed or failed passed and this one failed, "recovered" the other way
/// round. Canaries and other end states say nothing (a canary's failures are selection misses, not news).
enum BranchNotification {
  static func text(run: RunRecord, previous: RunState?, publicURL: String?) -> String? {
    guard run.trigger != .canary, let previous else { return nil }
    let link = publicURL.map { " <\($0)/runs/\(run.id)>" } ?? ""
    let at = "\(run.repository)/\(run.branch) at \(String(run.head.prefix(10))) (run #\(run.id))"
    switch (previous, run.state) {
    case (.passed, .failed):
      let what =
        run.failedTests.map { ": \($0) test\($0 == 1 ? "" : "s") failed" } ?? (run.reason.map { ": \($0)" } ?? "")
      return "\u{274C} \(at) failed\(what)\(link)"
    case (.failed, .passed):
      return "\u{2705} \(at) recovered: the tests pass again\(link)"
    default:
      return nil
    }
  }

  /// Slack's incoming-webhook body (also Mattermost, Rocket.Chat, Discord's `/slack` endpoint).
  static func request(webhook: String, text: String) -> HTTPPost {
    let body = (try? JSONSerialization.data(withJSONObject: ["text": text], options: [.sortedKeys])) ?? Data()
    return HTTPPost(url: webhook, headers: ["Content-Type": "application/json"], body: body)
  }
}

/// Sends branch notifications in the background, in order per repository, through `HTTPDelivery` (retries
/// like commit statuses). A webhook that refuses or stays down is logged once per repository until it works
/// again; a run is never delayed.
actor BranchNotifier {
  private let webhooks: [String: String]
  private let publicURL: String?
  private let store: RunStore
  private let log: DaemonLog
  private let send: HTTPDelivery.Send
  private let retryDelays: [Duration]
  private let queue = DeliveryQueue()
  private var failing: Set<String> = []

  init(
    repositories: [RepositorySettings], publicURL: String?, store: RunStore, log: DaemonLog,
    send: @escaping HTTPDelivery.Send = HTTPDelivery.liveSend,
    retryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(30)]
  ) {
    webhooks = Dictionary(
      repositories.compactMap { repository in repository.notify.map { (repository.name, $0.webhook) } },
      uniquingKeysWith: { first, _ in first })
    self.publicURL = publicURL
    self.store = store
    self.log = log
    self.send = send
    self.retryDelays = retryDelays
  }

  /// A run ended (recorded in the store): compares it with the branch's previous passed or failed run. In the
  /// order runs end, per repository (`DeliveryQueue`).
  nonisolated func finished(_ run: RunRecord) {
    guard webhooks[run.repository] != nil, run.state == .passed || run.state == .failed else { return }
    queue.submit(key: run.repository) { await self.notify(run) }
  }

  /// Waits until every notification of a run that ended before this call was delivered or given up (tests,
  /// shutdown).
  func drain() async { await queue.drain() }

  private func notify(_ run: RunRecord) async {
    guard let webhook = webhooks[run.repository] else { return }
    let previous =
      (try? store.runs(
        repository: run.repository, branch: run.branch, states: [.passed, .failed], limit: 10, before: run.id))?
      .first { $0.trigger != .canary }?.state
    guard let text = BranchNotification.text(run: run, previous: previous, publicURL: publicURL) else { return }
    await deliver(BranchNotification.request(webhook: webhook, text: text), repository: run.repository)
  }

  private func deliver(_ request: HTTPPost, repository: String) async {
    let outcome = await HTTPDelivery.post(request, send: send, retryDelays: retryDelays)
    guard outcome != .delivered else {
      failing.remove(repository)
      return
    }
    guard failing.insert(repository).inserted else { return }
    let why =
      switch outcome {
      case .refused(let code): "answered \(code)"
      case .gaveUp(let problem): problem
      case .delivered: ""
      }
    // The URL is a secret for most chat services: name the host only.
    let host = URLComponents(string: request.url)?.host ?? "the webhook"
    log.warning(
      "the notification webhook of \(repository) (\(host)) \(why); notifications are dropped until it works again")
  }
}
