import RippleConfig
import RippleCore

/// Which branch rule of a repository applies to a branch: the sources follow by it, the scheduler cancels by it.
package enum BranchMatcher {
  /// Branch patterns are globs over the branch name: `*` stays within a `/`-separated part, `**` crosses them.
  package static func matches(_ pattern: String, _ branch: String) -> Bool { Glob(pattern).matches(branch) }

  static func rule(for branch: String, in rules: [BranchRule]) -> BranchRule? {
    rules.first { matches($0.pattern, branch) }
  }
}
