import Foundation
import RippleConfig
import RunModel

/// A run's result as a forge commit status (docs/DESIGN.md, "rippled.yml": `status`). Pure: the request
/// is built here, sent by `CommitStatusReporter`.
struct CommitStatus: Sendable, Hashable {
  enum State: String, Sendable, Hashable {
    case pending, success, failure, error
    /// Cancelled or superseded: GitHub and Gitea say `error`, GitLab `canceled`.
    case cancelled
  }

  var state: State
  var description: String
  /// The run's page, when `http.publicURL` is set.
  var targetURL: String?

  /// Posted when a run starts.
  static func started(_ run: RunRecord, publicURL: String?) -> CommitStatus {
    CommitStatus(
      state: .pending, description: "testing the affected targets (run \(run.id))",
      targetURL: link(run, publicURL: publicURL))
  }

  /// Posted when a run ends; nil for an interrupted run (it is queued again and will post itself).
  static func finished(_ run: RunRecord, publicURL: String?) -> CommitStatus? {
    let scope = run.selectedTestTargets.map { selected in
      "\(selected) of \(run.totalTestTargets ?? selected) test target\((run.totalTestTargets ?? selected) == 1 ? "" : "s")"
    }
    let state: State
    let description: String
    switch run.state {
    case .passed:
      state = .success
      description = scope.map { "\($0) passed" } ?? (run.reason ?? "passed")
    case .failed:
      state = .failure
      let failed = run.failedTests.map { ", \($0) test\($0 == 1 ? "" : "s") failed" } ?? ""
      description = (scope ?? "tests") + failed + (run.failedTests == nil ? " failed" : "")
    case .error:
      state = .error
      description = run.reason ?? "error"
    case .cancelled, .superseded:
      state = .cancelled
      description = run.reason ?? run.state.rawValue
    case .queued, .running, .interrupted:
      return nil
    }
    return CommitStatus(state: state, description: description, targetURL: link(run, publicURL: publicURL))
  }

  static func link(_ run: RunRecord, publicURL: String?) -> String? {
    publicURL.map { "\($0)/runs/\(run.id)" }
  }

  /// An HTTP request, ready to send.
  typealias Request = HTTPPost

  /// GitHub and Gitea: `POST {api}/repos/{owner}/{repo}/statuses/{sha}`; GitLab:
  /// `POST {api}/projects/{id}/statuses/{sha}` with its own state names and `name` for the context.
  func request(for settings: CommitStatusSettings, commit: String, token: String) -> Request {
    // The forges cut longer descriptions (GitHub rejects them): keep the start.
    let text = description.count > 140 ? String(description.prefix(139)) + "…" : description
    var body: [String: String] = ["description": text]
    if let targetURL { body["target_url"] = targetURL }
    let url: String
    var headers = ["Content-Type": "application/json", "User-Agent": "rippled"]
    switch settings.provider {
    case .github, .gitea:
      url = "\(settings.api)/repos/\(settings.repository)/statuses/\(commit)"
      body["state"] = state == .cancelled ? State.error.rawValue : state.rawValue
      body["context"] = settings.context
      if settings.provider == .github {
        headers["Authorization"] = "Bearer \(token)"
        headers["Accept"] = "application/vnd.github+json"
        headers["X-GitHub-Api-Version"] = "2022-11-28"
      } else {
        headers["Authorization"] = "token \(token)"
      }
    case .gitlab:
      let project =
        settings.repository.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? settings.repository
      url = "\(settings.api)/projects/\(project)/statuses/\(commit)"
      body["state"] = Self.gitLabState(state)
      body["name"] = settings.context
      headers["PRIVATE-TOKEN"] = token
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Request(url: url, headers: headers, body: (try? encoder.encode(body)) ?? Data())
  }

  static func gitLabState(_ state: State) -> String {
    switch state {
    case .pending: "running"
    case .success: "success"
    case .failure, .error: "failed"
    case .cancelled: "canceled"
    }
  }
}
