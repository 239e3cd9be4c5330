import DaemonHTTPFixtures
import Foundation
import Hummingbird
import HummingbirdTesting
import RippleConfig
import RippleCore
import RunModel
import RunStore
import Testing

@testable import DaemonHTTP

/// The pages name each run's head commit: read from the source's mirror the first time, kept in the store after.
@Suite struct CommitNamesTests {
  /// A remote as the routes see it, answering commit names from a table and counting what it was asked.
  final class NamingSource: RemoteSource {
    let settings: RepositorySettings
    let names: [String: CommitSummary]
    let asked = Locked<[[String]]>([])

    init(remote: String, names: [String: CommitSummary]) {
      settings = RepositorySettings(name: "app", source: .remote(url: remote))
      self.names = names
    }

    func requestFetch() {}
    func poll() async {}
    func hasCommit(_ commit: String) -> Bool { names[commit] != nil }
    func matchesRemote(_ candidates: [String]) -> Bool { false }
    func commitSummaries(_ commits: [String]) -> [String: CommitSummary] {
      asked.withLock { $0.append(commits) }
      return names.filter { commits.contains($0.key) }
    }
  }

  static let named = String(repeating: "a", count: 40)
  static let gone = String(repeating: "b", count: 40)

  @Test func pagesReadACommitOnceAndLinkItsForgeWithoutCredentials() async throws {
    let fixture = try RouterFixture()
    let source = NamingSource(
      remote: "https://user:TOKEN@github.com/org/app.git",
      names: [Self.named: CommitSummary(subject: "Fix <login> & more", author: "Ada"), Self.gone: .unknown])
    let run = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: Self.named, trigger: .api))
    _ = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: Self.gone, trigger: .api))
    try await fixture.application(runs: .failing, branchSources: [source]).test(.router) { client in
      for _ in 0..<2 {
        try await client.execute(uri: "/", method: .get) { response in
          #expect(response.status == .ok)
          let page = String(buffer: response.body)
          #expect(page.contains("Fix &lt;login&gt; &amp; more"))
          #expect(page.contains("href=\"https://github.com/org/app/commit/\(Self.named)\""))
          #expect(!page.contains("TOKEN"))
        }
      }
      try await client.execute(uri: "/runs/\(run.id)", method: .get) { response in
        let page = String(buffer: response.body)
        #expect(page.contains("Fix &lt;login&gt; &amp; more"))
        #expect(page.contains("<span class=\"author\">· <bdi>Ada</bdi></span>"))
        #expect(page.contains(">on GitHub</a>"))
        #expect(!page.contains("TOKEN"))
      }
    }
    // Asked once for both commits; the unknown one is recorded too, so nothing is asked again.
    #expect(source.asked.withLock { $0 } == [[Self.named, Self.gone].sorted()])
    #expect(try fixture.store.run(run.id)?.subject == "Fix <login> & more")
    #expect(try fixture.store.runs().map(\.author).sorted { ($0 ?? "") < ($1 ?? "") } == ["", "Ada"])
  }
}
