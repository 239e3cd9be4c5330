#!/usr/bin/env bash
# `make demo`: builds a small modular repository (three packages, a local path dependency, a remote
# dependency that cannot be fetched, targets behind TEST_SERVER, git history), makes a change, and
# shows what Ripple reports; then bootstraps a generated dictionary (word list → gzip → SQLite, as the
# isowords Makefile does) and shows which targets a new word reaches. Exits non-zero if Ripple's answer
# is not the expected one.
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

step "Bootstrap generates resources: a word list → gzip → SQLite (the isowords dictionary)"
git add -A && git -c user.name=demo -c user.email=demo@example.invalid commit -qm "The change above"
mkdir -p Bootstrap
printf 'apple\nbanana\ncherry\napple\n' > Bootstrap/words.txt
printf 'CREATE TABLE words (word varchar(256) NOT NULL UNIQUE);\n.separator ,\n.import /dev/stdin words\n' \
  > Bootstrap/sqlite-words-import.sql
printf 'Sources/AppFeature1/Dictionaries/\nPackages/Core/Sources/CoreFeature2/Dictionaries/\n' >> .gitignore
cat >> ripple.yml <<'YAML'
generate:
  - id: words
    command: [sh, -c, "tr a-z A-Z < Bootstrap/words.txt | sort -u | gzip -n > \"$RIPPLE_OUTPUT_DIR/Words.en.txt.gz\""]
    inputs: [Bootstrap/words.txt]
    destination: Sources/AppFeature1/Dictionaries
  - id: words-db
    command: [sh, -c, "gunzip --stdout Sources/AppFeature1/Dictionaries/Words.en.txt.gz | sqlite3 -batch --init Bootstrap/sqlite-words-import.sql \"$RIPPLE_OUTPUT_DIR/Words.en.db\""]
    inputs: [Sources/AppFeature1/Dictionaries/Words.en.txt.gz, Bootstrap/sqlite-words-import.sql]
    destination: Packages/Core/Sources/CoreFeature2/Dictionaries
    after: [words]
    toolchain: [sqlite3, -version]
    outputs: [Words.en.db]
YAML
sed -n '/^generate:/,$p' ripple.yml
git add -A && git -c user.name=demo -c user.email=demo@example.invalid commit -qm "Dictionary bootstrap"
run "$ripple" bootstrap
run sqlite3 Packages/Core/Sources/CoreFeature2/Dictionaries/Words.en.db "SELECT count(*) FROM words"
run "$ripple" bootstrap

step "A new word: only the targets whose resources it feeds are affected"
echo "damson" >> Bootstrap/words.txt
run "$ripple" affected --base HEAD --format names
run "$ripple" affected --base HEAD --explain CoreFeature2Tests
run "$ripple" bootstrap
words=$(sqlite3 Packages/Core/Sources/CoreFeature2/Dictionaries/Words.en.db "SELECT count(*) FROM words")
again=$("$ripple" bootstrap)
explain=$("$ripple" affected --base HEAD --explain CoreFeature2Tests)
[ "$words" = 4 ] || { echo "demo check failed: expected 4 words, got $words" >&2; exit 1; }
[ "$again" = "up to date" ] || { echo "demo check failed: a re-run printed: $again" >&2; exit 1; }
case "$explain" in
  *"changed Bootstrap/words.txt → asset words → asset words-db → CoreFeature2"*) ;;
  *) echo "demo check failed: --explain printed: $explain" >&2; exit 1 ;;
esac
echo "demo check passed: the dictionary chain built 4 words, a re-run was up to date, --explain showed the chain"
