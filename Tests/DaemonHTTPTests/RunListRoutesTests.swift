import DaemonHTTPFixtures
import Foundation
import Hummingbird
import HummingbirdTesting
import RunModel
import RunStore
import Testing

@testable import DaemonHTTP

/// `/?branch=…&state=…&before=…`: the dashboard's filtered, paged runs list, and its answer to a bad filter.
@Suite struct RunListRoutesTests {
  @Test func filtersByBranchAndStateAndPagesPastTheNewest() async throws {
    let fixture = try RouterFixture()
    let store = fixture.store
    var failedOnMain: [Int64] = []
    for index in 0..<55 {
      let branch = index % 5 == 0 ? "feature/x" : "main"
      let run = try store.enqueue(NewRun(repository: "app", branch: branch, head: "c\(index)", trigger: .api))
      _ = try store.markRunning(run.id, logPath: nil)
      let state: RunState = index % 2 == 0 ? .failed : .passed
      _ = try store.finish(run.id, state: state, reason: nil)
      if branch == "main" && state == .failed { failedOnMain.append(run.id) }
    }
    let expected = failedOnMain.sorted(by: >)
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/?branch=main&state=failed", method: .get) { response in
        #expect(response.status == .ok)
        let page = String(buffer: response.body)
        let shown = Self.runIDs(page)
        #expect(shown == expected)
        #expect(!page.contains("id=\"older\""), "22 runs fit one page")
      }
      // The branch named with its slash encoded: its 11 runs.
      try await client.execute(uri: "/?branch=feature%2Fx", method: .get) { response in
        let shown = Self.runIDs(String(buffer: response.body))
        #expect(shown.count == 11)
      }
      let older = try await client.execute(uri: "/?repository=app", method: .get) { response in
        let page = String(buffer: response.body)
        #expect(Self.runIDs(page).count == 50)
        return Self.href(id: "older", in: page)
      }
      #expect(older == "/?repository=app&before=6")
      try await client.execute(uri: try #require(older), method: .get) { response in
        let page = String(buffer: response.body)
        #expect(Self.runIDs(page) == [5, 4, 3, 2, 1])
        #expect(Self.href(id: "older", in: page) == nil)
        #expect(Self.href(id: "newest", in: page) == "/?repository=app")
      }
    }
  }

  @Test func anUnknownStateIsABadRequestThatSaysWhichStatesExist() async throws {
    let fixture = try RouterFixture()
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/?state=broken", method: .get) { response in
        #expect(response.status == .badRequest)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        let page = String(buffer: response.body)
        #expect(page.contains("There is no run state &#39;broken&#39;. Filter by one of: queued, running, passed"))
      }
      try await client.execute(uri: "/?before=latest", method: .get) { response in
        #expect(response.status == .badRequest)
      }
    }
  }

  static func runIDs(_ page: String) -> [Int64] {
    page.components(separatedBy: "data-run=\"").dropFirst().compactMap { Int64($0.prefix { $0 != "\"" }) }
  }

  static func href(id: String, in page: String) -> String? {
    guard let range = page.range(of: "id=\"\(id)\" href=\"") else { return nil }
    return String(page[range.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
  }
}

/// `/repositories/{name}/targets/{package}:{target}`: a target's history, read from the store.
@Suite struct TargetHistoryRouteTests {
  @Test func aNestedPackagesTargetHasItsHistoryPage() async throws {
    let fixture = try RouterFixture()
    let store = fixture.store
    for (index, status) in [TargetStatus.passed, .failed].enumerated() {
      let run = try store.enqueue(NewRun(repository: "app", branch: "main", head: "c\(index)", trigger: .api))
      try store.recordResults(
        run.id,
        [
          TargetOutcome(
            package: "Packages/Core", name: "CoreTests", status: status, duration: 4.2,
            failures: status == .failed ? ["CoreTests.S/t: <expected>"] : [])
        ], failedTests: status == .failed ? 1 : 0)
    }
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/repositories/app/targets/Packages%2FCore:CoreTests", method: .get) { response in
        #expect(response.status == .ok)
        let page = String(buffer: response.body)
        #expect(page.contains("CoreTests.S/t: &lt;expected&gt;"))
        #expect(RunListRoutesTests.runIDs(page) == [2, 1])
        #expect(page.contains("1 of 2 that ran"))
      }
      try await client.execute(uri: "/repositories/app/targets/.:Nothing", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains("No recorded run of app selected this target."))
      }
      try await client.execute(uri: "/repositories/app/targets/CoreTests", method: .get) { response in
        #expect(response.status == .badRequest)
        #expect(String(buffer: response.body).contains("A target is named package:target"))
      }
    }
  }
}
