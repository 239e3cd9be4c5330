import Clibgit2
import Git
import RunModel

extension GitRepository {
  /// The subject (the message's first line, without a trailing `\r`) and author's name of commit `id`; throws
  /// `missingCommit` when the repository does not hold it. Names are decoded from UTF-8 with replacement.
  package func commitSummary(_ id: ObjectID) throws -> CommitSummary {
    try withRepository { repo in
      let commit = try lookupCommit(id, repo)
      defer { git_commit_free(commit) }
      let message = git_commit_message(commit).map { String(cString: $0) } ?? ""
      var subject = message.prefix { $0 != "\n" && $0 != "\r\n" }
      if subject.hasSuffix("\r") { subject.removeLast() }
      let author = git_commit_author(commit)?.pointee.name.map { String(cString: $0) } ?? ""
      return CommitSummary(subject: String(subject), author: author)
    }
  }
}
