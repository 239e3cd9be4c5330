import Foundation
import RunModel
import Testing

@testable import RunStore

/// Migration v7: each run's head commit named (subject and author), once, for the pages.
@Suite struct CommitNameTests {
  @Test func namesEveryRunOfTheCommitOnceAndListsCarryTheName() throws {
    try withStore { store, _ in
      let first = try store.enqueue(newRun(head: "aaa"))
      let second = try store.enqueue(newRun(branch: "feature", head: "aaa"))
      let other = try store.enqueue(newRun(repository: "lib", head: "aaa"))
      #expect(try store.run(first.id)?.subject == nil)

      let named = try store.nameCommit(
        repository: "app", commit: "aaa", CommitSummary(subject: "Fix <b>login</b>", author: "Ada"))
      #expect(named == 2)
      let runs = try store.runs(repository: "app")
      #expect(runs.map(\.subject) == ["Fix <b>login</b>", "Fix <b>login</b>"])
      #expect(runs.map(\.author) == ["Ada", "Ada"])
      #expect(try store.detail(second.id)?.run.subject == "Fix <b>login</b>")
      #expect(try store.run(other.id)?.subject == nil, "another repository's commit is its own")

      // A name once recorded stays: a second reading does not rewrite it.
      #expect(try store.nameCommit(repository: "app", commit: "aaa", .unknown) == 0)
      #expect(try store.run(first.id)?.author == "Ada")
    }
  }

  @Test func severalCommitsAreNamedInOneCall() throws {
    try withStore { store, _ in
      let first = try store.enqueue(newRun(head: "c1"))
      let second = try store.enqueue(newRun(head: "c2"))
      let named = try store.nameCommits(
        repository: "app", ["c1": CommitSummary(subject: "One", author: "A"), "c2": .unknown, "c9": .unknown])
      #expect(named == 2)
      #expect(try store.run(first.id)?.subject == "One")
      #expect(try store.run(second.id)?.subject == "")
      #expect(try store.nameCommits(repository: "app", [:]) == 0)
    }
  }

  @Test func aLongSubjectIsKeptWhole() throws {
    try withStore { store, _ in
      let run = try store.enqueue(newRun(head: "bbb"))
      let subject = "<script>alert(1)</script>" + String(repeating: "x", count: 10_000)
      try store.nameCommit(repository: "app", commit: "bbb", CommitSummary(subject: subject, author: "A & B"))
      #expect(try store.run(run.id)?.subject == subject)
    }
  }
}
