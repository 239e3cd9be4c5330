#!/usr/bin/env bash
# `make dashboard-shot`: the dashboard in a real browser. Starts rippled on a generated isowords-like
# repository (scripts/fixture_repo.py) behind a bare "remote", lets it run the baseline, a push that passes
# and a push that breaks a test, then renders `/` and the last two run pages in headless Chromium:
# screenshots in OUT (default .build/dashboard/), and the DOM Chromium built is checked for the runs table,
# the states and the SVG graph. Exit 1 when a check fails.
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
  rm -rf "$work"
}
trap cleanup EXIT
export GIT_AUTHOR_NAME=shot GIT_AUTHOR_EMAIL=shot@example.invalid GIT_COMMITTER_NAME=shot GIT_COMMITTER_EMAIL=shot@example.invalid

python3 "$here/fixture_repo.py" "$work/repo" --features 2 --no-remote >/dev/null
git init -q --bare -b main "$work/remote.git"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
echo shot-token > "$work/token"
cat > "$work/rippled.yml" <<YAML
http: {address: "127.0.0.1:0", tokenFile: $work/token}
stateDirectory: $work/state
cacheDirectory: $work/cache
logsDirectory: $work/logs
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
api POST /api/runs '{"repository":"isowords-like","branch":"main"}' >/dev/null
wait_idle 2
test_file=$(cd "$work/repo" && ls Tests/*/*.swift | head -1)
python3 - "$work/repo/$test_file" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
open(path, "w").write(text + "\nimport Testing\n@Test func brokenOnPurpose() { #expect(1 + 1 == 3, \"a failing test for the screenshot\") }\n")
PY
git -C "$work/repo" commit -qam "Break a test"
git -C "$work/repo" push -q "$work/remote.git" HEAD:refs/heads/main
api POST /api/runs '{"repository":"isowords-like","branch":"main"}' >/dev/null
wait_idle 3

port=$(cat "$PORT_FILE")
ids=$(api GET /api/runs | python3 -c "import json,sys; print(' '.join(str(r['id']) for r in json.load(sys.stdin)[:2]))")
shoot() {  # shoot NAME PATH
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
    --screenshot="$out/$1.png" "http://127.0.0.1:$port$2" 2>/dev/null
  "$chromium" --headless --no-sandbox --disable-gpu --dump-dom "http://127.0.0.1:$port$2" 2>/dev/null > "$out/$1.html"
}
shoot index /
failures=0
expect() {  # expect FILE TEXT WHAT
  if grep -q -- "$2" "$out/$1"; then echo "  ok    $3"; else echo "  FAIL  $3 ($2 not in $1)"; failures=$((failures + 1)); fi
}
expect index.html "passed" "the index shows a passed run"
expect index.html "failed" "the index shows a failed run"
expect index.html "/runs/" "the index links to run pages"
for id in $ids; do
  shoot "run-$id" "/runs/$id"
  expect "run-$id.html" "<svg" "run $id draws the affected graph"
  expect "run-$id.html" "CoreFeature\|Tests" "run $id lists targets"
done
for png in "$out"/*.png; do
  size=$(stat -c %s "$png" 2>/dev/null || stat -f %z "$png")
  [ "$size" -gt 10000 ] && echo "  ok    $(basename "$png") ($size bytes)" || { echo "  FAIL  $(basename "$png") is empty"; failures=$((failures + 1)); }
done
echo "screenshots: $out"
exit $((failures > 0))
