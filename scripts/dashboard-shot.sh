#!/usr/bin/env bash
# `make dashboard-shot`: the dashboard in a real browser. Starts rippled on a generated isowords-like
# repository (scripts/fixture_repo.py) behind a bare "remote", lets it run the baseline, a push that passes
# and a push that breaks a test, then renders `/` and the last two run pages in headless Chromium:
# screenshots in OUT (default .build/dashboard/), and the DOM Chromium built is checked for the runs table,
# the states and the SVG graph. Also: a change only to an ignored file (data/flag.md) that a test reads
# passes with nothing selected, and a canary (POST /api/runs with canary: true) then finds that miss: the
# dashboard's miss panel; and a slow run shot while it runs, logged in (a loopback proxy adds the session
# cookie): the live log followed by /static/live-log.js and the Cancel button. Last, the repository's history
# pictures: ~50 days of past runs and misses are written into the store (scripts/dashboard_history.py: rippled
# has no clock to move) and `/` is shot again as history.png; both index shots are checked for the three
# charts (an <svg> each, by aria-label, with bars), the first for the sentence that no coverage is recorded, the
# second for the seeded runs' "Line coverage per run" picture (points, a partial one). Issue 43's pages too: commits named on the index, a filtered
# list (filtered.png) and a failing test target's history (target.png). Issue 52: each page also 800 px wide
# (NAME-800.png), and at 1280 and 800 px every status badge of the runs list and of a run's targets (the cached
# one among them: a run of an already-passed commit, run-cached.png) stays inside its cell
# (scripts/dashboard_layout.py). Exit 1 when a check fails.
set -euo pipefail
rippled=${1:?usage: dashboard-shot.sh RIPPLED [OUT]}
out=${2:-.build/dashboard}
here=$(cd "$(dirname "$0")" && pwd)
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "error: chromium not found; run scripts/install-deps.sh --browser" >&2; exit 3; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/rippled-shot.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  [ -n "${KEEP_SHOT:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
export GIT_AUTHOR_NAME=shot GIT_AUTHOR_EMAIL=shot@example.invalid GIT_COMMITTER_NAME=shot GIT_COMMITTER_EMAIL=shot@example.invalid

python3 "$here/fixture_repo.py" "$work/repo" --features 2 --no-remote >/dev/null
test_file=$(cd "$work/repo" && ls Tests/*/*.swift | head -1)
# A test that reads a file no target owns and ripple.yml ignores (`**/*.md`): a change to it selects nothing.
mkdir -p "$work/repo/data" && echo ok > "$work/repo/data/flag.md"
cat >> "$work/repo/$test_file" <<'SWIFT'

import Foundation
@Test func dataFlagIsOK() throws {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let flag = try String(contentsOf: root.appendingPathComponent("data/flag.md"), encoding: .utf8)
  #expect(flag.hasPrefix("ok"), "data/flag.md says \(flag)")
}
SWIFT
git -C "$work/repo" add -A && git -C "$work/repo" commit -qm "A test that reads data/flag.md"
git init -q --bare -b main "$work/remote.git"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
echo shot-token > "$work/token"
mkdir -m 0700 "$work/secrets"  # main is protected: only signed pass records count (a key as `ripple results keygen` makes)
python3 -c "import base64, os; print(base64.b64encode(os.urandom(32)).decode())" > "$work/secrets/signing.key"
cat > "$work/rippled.yml" <<YAML
http: {address: "127.0.0.1:0", tokenFile: $work/token}
stateDirectory: $work/state
cacheDirectory: $work/cache
logsDirectory: $work/logs
records: {signingKeyFile: $work/secrets/signing.key}   # a run of an already-passed commit: its targets cached
repositories:
  - name: isowords-like
    remote: $work/remote.git
    fetchInterval: 1h
    branches: [main]
YAML
"$rippled" --config "$work/rippled.yml" 2>"$work/rippled.log" &
pid=$!

api() {  # api METHOD PATH [BODY] → JSON on stdout
  python3 - "$@" <<'PY'
import os, sys, urllib.request
method, path = sys.argv[1], sys.argv[2]
body = sys.argv[3].encode() if len(sys.argv) > 3 else None
port = open(os.environ["PORT_FILE"]).read().strip()
req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method,
                             headers={"Authorization": "Bearer shot-token", "Content-Type": "application/json"})
print(urllib.request.urlopen(req, timeout=30).read().decode())
PY
}
export PORT_FILE="$work/state/http-port"
wait_idle() {  # until nothing is queued or running (and at least N runs exist)
  for _ in $(seq 1 1800); do
    if [ -s "$PORT_FILE" ]; then
      status=$(api GET /api/status 2>/dev/null || true)
      runs=$(api GET /api/runs 2>/dev/null || echo '[]')
      if python3 -c "import json,sys; s=json.loads(sys.argv[1]); r=json.loads(sys.argv[2]); sys.exit(0 if s['ready'] and s['queueLength']==0 and not s['running'] and len(r)>=int(sys.argv[3]) else 1)" "$status" "$runs" "$1" 2>/dev/null; then
        return 0
      fi
    fi
    kill -0 "$pid" 2>/dev/null || { echo "error: rippled exited:" >&2; cat "$work/rippled.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "error: rippled did not finish its runs in 15 min" >&2; cat "$work/rippled.log" >&2; exit 1
}

echo "baseline run (builds and tests everything once)…"
wait_idle 1
echo "// touched" >> "$work/repo/Packages/Core/Sources/CoreFeature1/CoreFeature1.swift"
git -C "$work/repo" commit -qam "Touch CoreFeature1"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
touched=$(git -C "$work/repo" rev-parse HEAD)
api POST /api/runs '{"repository":"isowords-like","branch":"main"}' >/dev/null
wait_idle 2
echo "an ignored file breaks a test: the selective run passes, the canary finds the miss…"
echo broken > "$work/repo/data/flag.md"
git -C "$work/repo" commit -qam "Change data/flag.md (ignored)"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
api POST /api/runs '{"repository":"isowords-like","branch":"main"}' >/dev/null
wait_idle 3
api POST /api/runs '{"repository":"isowords-like","branch":"main","canary":true}' >/dev/null
wait_idle 4
python3 - "$work/repo/$test_file" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text + "\nimport Testing\n@Test func brokenOnPurpose() { #expect(1 + 1 == 3, \"a failing test for the screenshot\") }\n")
PY
git -C "$work/repo" commit -qam "Break a test"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
api POST /api/runs '{"repository":"isowords-like","branch":"main"}' >/dev/null
wait_idle 5

port=$(cat "$PORT_FILE")
ids=$(api GET /api/runs | python3 -c "import json,sys; print(' '.join(str(r['id']) for r in json.load(sys.stdin)[:2]))")
shoot() {  # shoot NAME PATH: NAME.png 1280 px wide, NAME-800.png 800 px wide, and the DOM as NAME.html
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
    --screenshot="$out/$1.png" "http://127.0.0.1:$port$2" 2>/dev/null
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=800,1000 \
    --screenshot="$out/$1-800.png" "http://127.0.0.1:$port$2" 2>/dev/null
  "$chromium" --headless --no-sandbox --disable-gpu --dump-dom "http://127.0.0.1:$port$2" 2>/dev/null > "$out/$1.html"
}
layout() {  # layout PATH: at 1280 and 800 px, every status badge (runs list, targets table) stays inside its cell
  for width in 1280 800; do
    python3 "$here/dashboard_layout.py" "$chromium" "http://127.0.0.1:$port$1" "$width" || failures=$((failures + 1))
  done
}
shoot index /
failures=0
layout /
expect() {  # expect FILE TEXT WHAT
  if grep -q -- "$2" "$out/$1"; then echo "  ok    $3"; else echo "  FAIL  $3 ($2 not in $1)"; failures=$((failures + 1)); fi
}
expect index.html "s-passed" "the index shows a passed run"
expect index.html "failed" "the index shows a failed run"
expect index.html "/runs/" "the index links to run pages"
for id in $ids; do
  shoot "run-$id" "/runs/$id"
  expect "run-$id.html" "<svg" "run $id draws the affected graph"
  expect "run-$id.html" "CoreFeature\|Tests" "run $id lists targets"
  layout "/runs/$id"
done
expect index.html 'id="misses"' "the index shows the selection-miss panel"
# Issue 43: commits named, the graph in a <details>, build vs test time, filtered pages, a target's history.
expect index.html 'class="commit-name"' "the index names each run's commit (subject, author)"
expect index.html 'Break a test' "the index shows the newest commit's subject"
newest=${ids%% *}
expect "run-$newest.html" 'class="graph-box"' "run $newest has its graph in a collapsible box"
expect "run-$newest.html" 'build [0-9][^<]* · tests' "run $newest splits build and test time"
shoot filtered "/?branch=main&state=failed"
expect filtered.html 'class="filters"' "the filtered list has its form"
expect filtered.html 'data-run=' "the filtered list lists the failed runs"
target=$(api GET "/api/runs/$newest" | python3 -c "
import json, sys, urllib.parse
t = [t for t in json.load(sys.stdin)['analysis']['targets'] if t['isTest'] and t.get('status') == 'failed'][0]
print(urllib.parse.quote(t['package'], safe='') + ':' + urllib.parse.quote(t['name'], safe=''))")
shoot target "/repositories/isowords-like/targets/$target"
expect target.html 'class="tb tb-failed"' "the target's history draws a bar per run, the failed one red"
expect target.html 'that ran' "the target's history counts its failures"
expect index.html "canary #" "the miss panel links the canary"
# Today's runs only: a timed run with a selection, a day with time saved, a week with the canary's miss; no run
# measured coverage, so no coverage picture but the sentence saying how to turn it on.
python3 "$here/dashboard_history.py" check "$out/index.html" 1 1 1 || failures=$((failures + 1))

echo "a slow run, shot while it runs, logged in…"
printf '\n@Test func slowOnPurpose() async throws { try await Task.sleep(for: .seconds(60)) }\n' >> "$work/repo/$test_file"
git -C "$work/repo" commit -qam "A slow test"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
live=$(api POST /api/runs '{"repository":"isowords-like","branch":"main","commit":"'"$(git -C "$work/repo" rev-parse HEAD)"'"}' | python3 -c "import json,sys; print(json.load(sys.stdin)['id'])")
for _ in $(seq 1 600); do  # until it runs and its log has a few lines
  log=$(api GET "/api/runs/$live" | python3 -c "import json,sys; r=json.load(sys.stdin)['run']; print(r['state'], r.get('logPath') or '')")
  [ "${log%% *}" = running ] && [ -s "${log#* }" ] && [ "$(wc -l < "${log#* }")" -ge 3 ] && break
  sleep 0.5
done
cookie=$(python3 - "$port" <<'PY'
import sys, urllib.request, urllib.error
port = sys.argv[1]
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args): return None
req = urllib.request.Request(f"http://127.0.0.1:{port}/login", data=b"token=shot-token", method="POST",
                             headers={"Origin": f"http://127.0.0.1:{port}"})
try:
    urllib.request.build_opener(NoRedirect).open(req, timeout=30)
except urllib.error.HTTPError as e:
    print(e.headers["Set-Cookie"].split(";")[0])
PY
)
# A loopback proxy that adds the session cookie: Chromium has no flag for a cookie. It streams (the live log).
python3 - "$port" "$cookie" "$work/proxy-port" <<'PY' &
import http.server, socketserver, sys, urllib.request
port, cookie, port_file = sys.argv[1], sys.argv[2], sys.argv[3]
class Proxy(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        req = urllib.request.Request(f"http://127.0.0.1:{port}{self.path}", headers={"Cookie": cookie})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                self.send_response(r.status)
                for k, v in r.headers.items():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Connection", "close")
                self.end_headers()
                while chunk := r.read1(4096):
                    self.wfile.write(chunk); self.wfile.flush()
        except Exception:
            pass
    def log_message(self, *a): pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
s = Server(("127.0.0.1", 0), Proxy)
open(port_file, "w").write(str(s.server_address[1]))
s.serve_forever()
PY
proxy=$!
for _ in $(seq 1 50); do [ -s "$work/proxy-port" ] && break; sleep 0.1; done
pport=$(cat "$work/proxy-port")
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
  --screenshot="$out/run-live.png" "http://127.0.0.1:$pport/runs/$live" 2>/dev/null
"$chromium" --headless --no-sandbox --disable-gpu --dump-dom \
  "http://127.0.0.1:$pport/runs/$live" 2>/dev/null > "$out/run-live.html"
kill "$proxy" 2>/dev/null || true
api POST "/api/runs/$live/cancel" >/dev/null || true
expect run-live.html 'id="live-log"' "the live run page shows its log so far"
expect run-live.html 'data-live="following"' "live-log.js runs under the CSP and follows the log"
expect run-live.html 'id="cancel"' "logged in, the live run page has a Cancel button"
expect run-live.html 'action="/logout"' "logged in, the page offers to log out"

wait_idle 6
echo "the passing commit again: its test targets served from pass records (cached)…"
api POST /api/runs '{"repository":"isowords-like","branch":"main","commit":"'"$touched"'"}' >/dev/null
wait_idle 7
cached=$(api GET /api/runs | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['id'])")
shoot run-cached "/runs/$cached"
expect run-cached.html 't-cached' "run $cached shows its cached test targets"
expect run-cached.html ' cached <span class="muted">of ' "run $cached counts them apart (N run, M cached of T)"
layout "/runs/$cached"
shoot index-cached /
expect index-cached.html ' cached <span class="muted">of ' "the runs list counts them as the run page does"
layout /

echo "the repository's history over several weeks (written into the store), shot on the index…"
python3 "$here/dashboard_history.py" seed "$work/state/rippled.sqlite" isowords-like
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1500 \
  --screenshot="$out/history.png" "http://127.0.0.1:$port/" 2>/dev/null
"$chromium" --headless --no-sandbox --disable-gpu --dump-dom "http://127.0.0.1:$port/" 2>/dev/null > "$out/history.html"
# The seeded runs recorded coverage (every fifth partial): the coverage line, with its last 20 runs.
python3 "$here/dashboard_history.py" check "$out/history.html" 10 15 3 3 15 || failures=$((failures + 1))
python3 "$here/dashboard_history.py" png "$out/history.png" 1280 1500 60000 || failures=$((failures + 1))

for png in "$out"/*.png; do
  size=$(stat -c %s "$png" 2>/dev/null || stat -f %z "$png")
  [ "$size" -gt 10000 ] && echo "  ok    $(basename "$png") ($size bytes)" || { echo "  FAIL  $(basename "$png") is empty"; failures=$((failures + 1)); }
done
echo "screenshots: $out"
exit $((failures > 0))
