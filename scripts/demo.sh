#!/usr/bin/env bash
# `make demo`: builds a small modular repository (three packages, a local path dependency, a remote
# dependency that cannot be fetched, targets behind TEST_SERVER, git history), makes a change, and
# shows what Ripple reports. Exits non-zero if Ripple's answer is not the expected one.
set -euo pipefail
ripple=${1:?usage: demo.sh PATH-TO-RIPPLE}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ripple-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export RIPPLE_CACHE_DIR="$work/cache"
repo="$work/isowords-like"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "A repository shaped like isowords: 3 packages, 25 targets, history"
python3 "$here/fixture_repo.py" "$repo" --features 4
git -C "$repo" log --oneline
cd "$repo"

step "Ripple checks its prerequisites"
run "$ripple" doctor

step "A change: edit a shared Core feature, add a file to an App feature, touch the README"
echo "// faster path" >> Packages/Core/Sources/CoreFeature1/CoreFeature1.swift
echo "extension AppFeature3 { static let new = 1 }" > Sources/AppFeature3/New.swift
echo "More docs." >> README.md
run "$ripple" changes

step "What it touches, with reasons (Core is a .package(path:) dependency of App and Server)"
run "$ripple" affected

step "Why is AppFeature2Tests selected?"
run "$ripple" affected --explain AppFeature2Tests

step "For CI: the test targets, and the anchored swift test filter"
run "$ripple" affected --format names
run "$ripple" affected --format filter

step "Commit-to-commit: the last commit only touched ServerFeature3"
run "$ripple" affected --base HEAD~1 --head HEAD --format names

# The demo is also a check: the answers above must be the right ones.
json=$("$ripple" affected --format json)
python3 - "$json" <<'PY'
import json, sys
report = json.loads(sys.argv[1])
tests = {(t["package"], t["name"]) for t in report["testTargets"]}
expected = {(pkg, f"{name}Feature{i}Tests") for pkg, name in
            [(".", "App"), ("Packages/Core", "Core"), ("Packages/Server", "Server")] for i in (1, 2, 3)}
assert tests == expected, f"expected {sorted(expected)}, got {sorted(tests)}"
assert all(t["reasons"] for t in report["testTargets"]), "every selected target needs a reason"
assert not report["runAll"], report["runAllReasons"]
print(f"\ndemo check passed: {len(tests)} of 13 test targets selected, each with its reasons")
PY
