import RippleConfig
import Testing

@testable import DaemonSupport

/// A run's work tree is named like a clone of its repository: SwiftPM names `.package(path: "../")` after
/// the folder, so a nested package reaching the root by path evaluates only under the repository's name.
@Suite struct CheckoutNameTests {
  @Test(arguments: [
    ("https://github.com/acme/server-kit.git", "server-kit"),
    ("https://github.com/acme/server-kit", "server-kit"),
    ("https://github.com/acme/server-kit/", "server-kit"),
    ("git@github.com:acme/server-kit.git", "server-kit"),
    ("ssh://git@host:2222/acme/server-kit.git", "server-kit"),
    ("/srv/git/server-kit.git", "server-kit"),
    ("/srv/git/server-kit.git/", "server-kit"),
    ("git@host:server-kit.git", "server-kit"),
    ("/srv/git/.git", "git"),
    ("/", "configured"),
    ("/srv/git/100%.git", "configured"),
  ])
  func aRemotesCheckoutIsNamedAsGitCloneWouldNameIt(url: String, expected: String) {
    #expect(DaemonPaths.checkoutName(of: .remote(url: url), repository: "configured") == expected)
  }

  @Test func aWorkingTreesCopyKeepsTheDevelopersFolderName() {
    #expect(DaemonPaths.checkoutName(of: .workingTree(path: "/home/me/src/isowords"), repository: "x") == "isowords")
    let paths = DaemonPaths(state: "/s", cache: "/c", logs: "/l")
    #expect(
      paths.worktree("kit", lane: "feature/x", checkoutName: "server-kit")
        == paths.lane("kit", lane: "feature/x") + "/server-kit")
    #expect(paths.lane("kit", lane: "main") == "/c/work/kit/main")
  }
}
