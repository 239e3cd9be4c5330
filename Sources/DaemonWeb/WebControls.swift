import Foundation
import RunModel

/// What a run page shows beyond the run: whether the viewer is logged in (re-run and cancel buttons, or a link to
/// log in) and the log so far (followed live by `/static/live-log.js` while the run is queued or running).
public struct RunPageOptions: Sendable {
  public var loggedIn: Bool
  public var log: LogTail?
  /// The selection misses this run was part of (as the canary that found them or the run that left a target out).
  public var misses: [SelectionMiss]
  /// The run's tests that did not simply pass (flaky and quarantined ones are listed).
  public var tests: [TestOutcome]
  /// The repository's remote URL, for the link to the head commit on its forge (`ForgeLink`); nil: no link.
  public var remote: String?

  public init(
    loggedIn: Bool = false, log: LogTail? = nil, misses: [SelectionMiss] = [], tests: [TestOutcome] = [],
    remote: String? = nil
  ) {
    self.remote = remote
    self.loggedIn = loggedIn
    self.log = log
    self.misses = misses
    self.tests = tests
  }
}

/// The end of a run's log as read for a page: its text, the bytes left out before it, and the file size it was
/// read at (the offset a live view resumes from).
public struct LogTail: Sendable, Equatable {
  public var text: String
  public var omittedBytes: Int
  public var endOffset: Int

  public init(text: String, omittedBytes: Int, endOffset: Int) {
    self.text = text
    self.omittedBytes = omittedBytes
    self.endOffset = endOffset
  }
}

extension Dashboard {
  /// `/login`: one password field for the API token (the same as `Authorization: Bearer`), posted to `/login`.
  public static func login(next: String, message: String?, loggedIn: Bool, tokenConfigured: Bool) -> String {
    var body = topBar(status: nil) + "<main><div class=\"not-found\"><h1>Log in</h1>\n"
    if let message { body += "<div class=\"box problem\" id=\"login-error\">\(message)</div>\n" }
    if loggedIn {
      body += """
        <p>You are logged in.</p>
        <form method="post" action="/logout"><button type="submit">Log out</button></form>

        """
    } else if !tokenConfigured {
      body += "<p>Logging in needs an API token: set <code>http.tokenFile</code> in rippled.yml.</p>\n"
    } else {
      body += """
        <p class="muted">With the API token (the file <code>http.tokenFile</code> names), you can re-run and cancel \
        runs from their pages. The browser keeps a session cookie, never the token.</p>
        <form method="post" action="/login" class="login">
        <input type="hidden" name="next" value="\(next)"/>
        <label for="token">API token</label>
        <input type="password" id="token" name="token" autocomplete="current-password" required="required"/>
        <button type="submit">Log in</button>
        </form>

        """
    }
    body += "<p><a href=\"\(next)\">Back</a></p></div></main>"
    return Page.render(title: "Log in · rippled", refreshSeconds: nil, now: nil, body: body)
  }

  /// The run page's buttons: re-run (a finished run), cancel (a queued or running one) and log out; without a
  /// login a link to the login form.
  static func controls(_ run: RunRecord, loggedIn: Bool) -> Markup {
    guard loggedIn else {
      return """
        <div class="controls"><a id="login-link" href="/login?next=/runs/\(run.id)">Log in to re-run or cancel</a>\
        </div>

        """
    }
    var out: Markup = "<div class=\"controls\">"
    if run.state.isFinal && run.state == .passed {
      // A pass re-run reads pass records (nothing changed, so nothing runs) unless asked to run fresh.
      out += """
        <form method="post" action="/runs/\(run.id)/rerun"><button type="submit" id="rerun">Re-run</button></form>\
        <form method="post" action="/runs/\(run.id)/rerun?fresh=1"><button type="submit" id="rerun-fresh" \
        class="quiet" title="every selected target runs, none is skipped for a pass record">Re-run fresh</button>\
        </form>
        """
    } else if run.state.isFinal {
      out += """
        <form method="post" action="/runs/\(run.id)/rerun"><button type="submit" id="rerun" \
        title="fresh: every selected target runs, none is skipped for a pass record">Re-run</button></form>
        """
    } else {
      out += """
        <form method="post" action="/runs/\(run.id)/cancel"><button type="submit" id="cancel">Cancel</button></form>
        """
    }
    out += """
      <form method="post" action="/logout"><button type="submit" class="quiet">Log out</button></form></div>

      """
    return out
  }

  /// The log so far; while the run is live, the script follows it from `endOffset` and reloads the page when the
  /// run ends. Without scripts the page still shows the log as it was.
  static func logSection(_ run: RunRecord, tail: LogTail?) -> Markup {
    guard let tail else { return "" }
    let live = !run.state.isFinal
    var out: Markup = "<h2>Log"
    if tail.omittedBytes > 0 {
      out += """
         <span class="muted">· the last part; <a href="/api/runs/\(run.id)/log">the whole log</a> \
        (\(tail.omittedBytes) bytes before this)</span>
        """
    }
    out += "</h2>\n"
    if live {
      out += """
        <pre class="card log" id="live-log" data-follow="/api/runs/\(run.id)/log?follow=1" \
        data-offset="\(tail.endOffset)">\(tail.text)</pre>
        <script src="/static/live-log.js" defer="defer"></script>

        """
    } else {
      out += "<pre class=\"card log\" id=\"log\">\(tail.text)</pre>\n"
    }
    return out
  }
}
