import Foundation
import Git
import RunModel
import TestSupport
import Testing

@testable import DaemonSources

/// The pages name commits from rippled's own repositories (libgit2): the message's first line and the author.
@Suite struct CommitSummaryTests {
  @Test func readsTheFirstLineWholeAndTheAuthor() throws {
    let repository = try GitFixture()
    // Bad input: a subject with HTML and 10,000 characters, then a body.
    let subject = "<script>alert(1)</script> & " + String(repeating: "x", count: 10_000)
    let commit = try repository.commitAll(subject + "\r\n\r\nThe body.\n")
    let git = try GitRepository.open(at: repository.root)
    let summary = try git.commitSummary(ObjectID(hex: commit))
    #expect(summary.subject == subject)
    #expect(summary.author == (try repository.git("log", "-1", "--format=%an")).trimmingCharacters(in: .newlines))
    #expect(!summary.author.isEmpty)
  }

  @Test func aCommitTheRepositoryDoesNotHoldIsMissing() throws {
    let repository = try GitFixture()
    try repository.commitAll("first")
    let git = try GitRepository.open(at: repository.root)
    #expect(throws: GitError.self) { try git.commitSummary(ObjectID(hex: String(repeating: "c", count: 40))) }
  }
}
