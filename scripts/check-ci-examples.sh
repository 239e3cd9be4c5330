#!/usr/bin/env bash
# `make test`: the CI files Ripple ships (action.yml, examples/ci/) and the pipelines it generates for
# a real multi-package repository, each validated against its vendor's schema with check-jsonschema's
# built-in copies (nothing is fetched), and the action's steps run against that repository.
#   scripts/check-ci-examples.sh PATH-TO-RIPPLE [OUTPUT-DIR]
# OUTPUT-DIR keeps the generated pipelines (default: a temporary folder, removed).
set -euo pipefail
ripple=${1:?usage: check-ci-examples.sh PATH-TO-RIPPLE [OUTPUT-DIR]}
ripple=$(cd "$(dirname "$ripple")" && pwd)/$(basename "$ripple")
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=$(mktemp -d "${TMPDIR:-/tmp}/ripple-ci-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=${2:-$work/out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export RIPPLE_CACHE_DIR="$work/cache"

schema() { # schema NAME FILE...: exits non-zero with the schema's complaints
  local name=$1
  shift
  python3 -m check_jsonschema --builtin-schema "vendor.$name" "$@" >/dev/null \
    || { python3 -m check_jsonschema --builtin-schema "vendor.$name" "$@"; exit 1; }
  printf 'ok  %-17s %s\n' "$name" "$*"
}
fail() { echo "error: $*" >&2; exit 1; }

schema github-actions "$root/action.yml"
schema github-workflows "$root/examples/ci/github-actions.yml"
schema gitlab-ci "$root/examples/ci/gitlab-ci.yml"
schema buildkite "$root/examples/ci/buildkite.yml"

# No run: pastes an expression of outputs, matrix, needs, inputs or the event into a script (issue 23):
# the shipped files pass, and a workflow that does it is caught.
python3 "$here/check-run-expressions.py" "$root/action.yml" "$root/examples/ci/github-actions.yml"
cat >"$work/pasted.yml" <<'YAML'
on: push
jobs:
  plan:
    runs-on: ubuntu-24.04
    steps:
      - id: ripple
        run: echo targets=x >> "$GITHUB_OUTPUT"
      - name: Summary
        run: |
          echo "Affected: ${{ steps.ripple.outputs.test-targets }}"
      - name: Safe
        env:
          TARGETS: ${{ steps.ripple.outputs.test-targets }}
        run: |
          echo "Affected: $TARGETS"
YAML
if python3 "$here/check-run-expressions.py" "$work/pasted.yml" 2>"$work/pasted.txt"; then
  fail "check-run-expressions.py passed a run: that embeds a step output"
fi
[ "$(wc -l <"$work/pasted.txt")" = 1 ] && grep -q 'Summary: run: embeds ${{ steps.ripple.outputs.test-targets }}' "$work/pasted.txt" \
  || fail "check-run-expressions.py did not name exactly the unsafe step: $(cat "$work/pasted.txt")"
printf 'ok  %-17s %s\n' "run: expressions" "none pasted into scripts (and a pasted one is caught)"

# A repository of three packages (a root App, a shared Core linked by .package(path:), a Server),
# with history; then a change low in Core, so several packages' tests are reached.
repo="$work/isowords-like"
python3 "$here/fixture_repo.py" "$repo" --features 4 >/dev/null
echo "// faster path" >>"$repo/Packages/Core/Sources/CoreFeature1/CoreFeature1.swift"
echo "extension AppFeature3 { static let new = 1 }" >"$repo/Sources/AppFeature3/New.swift"
cd "$repo"
"$ripple" affected --format gitlab --shards 3 --job-image swift:6.3-noble --job-setup 'make install' \
  --job-artifacts-from ripple-plan >"$out/gitlab-child.yml"
"$ripple" affected --format buildkite --shards 3 --job-setup 'make install' >"$out/buildkite-upload.yml"
"$ripple" affected --format matrix --shards 3 >"$out/github-matrix.json"
schema gitlab-ci "$out/gitlab-child.yml"
schema buildkite "$out/buildkite-upload.yml"
[ "$(grep -c '"ripple test --targets ' "$out/gitlab-child.yml")" = 3 ] || fail "expected 3 GitLab jobs"
[ "$(grep -c 'pipeline: "\$PARENT_PIPELINE_ID"' "$out/gitlab-child.yml")" = 3 ] || fail "expected 3 jobs needing the parent's artifacts"
[ "$(grep -c '"ripple test --targets ' "$out/buildkite-upload.yml")" = 3 ] || fail "expected 3 Buildkite steps"
[ "$(grep -o '"ids":"[^"]*"' "$out/github-matrix.json" | wc -l)" = 3 ] || fail "expected 3 matrix entries with ids"

# The team's ripple.yml with a shared store (docs/CI.md) loads as a repository's ripple.yml.
"$ripple" affected --config "$root/examples/ci/ripple-shared-store.yml" --format json >/dev/null \
  || fail "examples/ci/ripple-shared-store.yml does not load"
printf 'ok  %-17s %s\n' "ripple.yml" "$root/examples/ci/ripple-shared-store.yml"

# Nothing affected (a commit against itself): one no-op job each, still valid.
"$ripple" affected --base HEAD --head HEAD --format gitlab --shards 3 >"$out/gitlab-nothing.yml"
"$ripple" affected --base HEAD --head HEAD --format buildkite --shards 3 >"$out/buildkite-nothing.yml"
schema gitlab-ci "$out/gitlab-nothing.yml"
schema buildkite "$out/buildkite-nothing.yml"
grep -q 'nothing to test' "$out/gitlab-nothing.yml" || fail "no no-op job in $out/gitlab-nothing.yml"

# The action's steps, as GitHub runs them (outputs in $GITHUB_OUTPUT), on the same repository.
export GITHUB_OUTPUT="$work/github-output" RIPPLE_BIN_DIR
RIPPLE_BIN_DIR=$(dirname "$ripple")
: >"$GITHUB_OUTPUT"
"$root/scripts/action-run.sh" cache-key
RIPPLE_INPUT_COMMAND=affected RIPPLE_INPUT_SHARDS=2 RIPPLE_INPUT_BASE=HEAD "$root/scripts/action-run.sh" run
for name in key restore-prefix path test-targets filter run-all matrix; do
  grep -q "^$name=." "$GITHUB_OUTPUT" || fail "the action wrote no $name output: $(cat "$GITHUB_OUTPUT")"
done
grep -q '^matrix={"include":\[{' "$GITHUB_OUTPUT" || fail "no matrix entries: $(cat "$GITHUB_OUTPUT")"
cp "$GITHUB_OUTPUT" "$out/github-action-outputs.txt"

# A matrix job: `command: test` with `targets: ${{ matrix.ids }}` plans exactly its entry's targets.
ids=$(sed -n 's/^matrix=//p' "$GITHUB_OUTPUT" | python3 -c 'import json, sys; print(json.load(sys.stdin)["include"][0]["ids"])')
RIPPLE_INPUT_COMMAND=test RIPPLE_INPUT_BASE=HEAD RIPPLE_INPUT_TARGETS="$ids" RIPPLE_INPUT_ARGS="--dry-run --format json" \
  "$root/scripts/action-run.sh" run >"$out/github-action-test-plan.json"
planned=$(python3 -c 'import json, sys
plan = json.load(open(sys.argv[1]))
print(",".join(sorted(run["package"] + ":" + t for run in plan["runs"] for t in run["testTargets"])))' \
  "$out/github-action-test-plan.json")
[ "$planned" = "$(tr , '\n' <<<"$ids" | LC_ALL=C sort | paste -sd,)" ] \
  || fail "the action's test step planned $planned, not the matrix entry's $ids"
# The action's install on a Linux runner, against a loopback server standing in for the release host:
# the published archive of its version is downloaded, checked with its .sha256 and installed; a damaged
# one is refused; where none is published (404) it is built from source (a stand-in build here).
version=$(tr -d ' \n' <"$root/VERSION")
name="ripple-$version-linux-$(uname -m)"
host="$work/release-host"
mkdir -p "$host/v$version" "$work/stage/$name/bin" "$work/stage/$name/share/ripple"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$ripple" >"$work/stage/$name/bin/ripple"
printf '#!/bin/sh\necho "rippled %s"\n' "$version" >"$work/stage/$name/bin/rippled"
chmod +x "$work/stage/$name/bin/"*
: >"$work/stage/$name/share/ripple/runtime-packages"
cp "$root/packaging/install.sh" "$work/stage/$name/"
(cd "$work/stage/$name" && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum >SHA256SUMS)
tar -C "$work/stage" -czf "$host/v$version/$name.tar.gz" "$name"
(cd "$host/v$version" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$host" >"$work/http.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
fetch() { # fetch DIST-DIR [ACTION-PATH]: the action's download and install steps; outputs in $work/fetch-output
  : >"$work/fetch-output"
  GITHUB_OUTPUT="$work/fetch-output" RIPPLE_DIST_DIR="$1" RIPPLE_RELEASE_URL="http://127.0.0.1:$port" \
    GITHUB_ACTION_PATH="${2:-$root}" RUNNER_TEMP="$work/runner" "${2:-$root}/scripts/action-run.sh" fetch
}
GITHUB_OUTPUT="$work/fetch-output" "$root/scripts/action-run.sh" build-key
grep -q "^key=ripple-dist-$version-Linux-" "$work/fetch-output" || fail "the cache key does not name the version: $(cat "$work/fetch-output")"
fetch "$work/dist" >"$work/fetch.txt" || fail "the action did not install the published archive: $(cat "$work/fetch.txt")"
grep -q "downloaded $name.tar.gz (ripple $version, checked against its .sha256)" "$work/fetch.txt" || fail "$(cat "$work/fetch.txt")"
GITHUB_OUTPUT="$work/fetch-output" RIPPLE_DIST_DIR="$work/dist" RUNNER_TEMP="$work/runner" \
  "$root/scripts/action-run.sh" install >/dev/null
bin_dir=$(sed -n 's/^bin-dir=//p' "$work/fetch-output")
[ "$("$bin_dir/ripple" --version)" = "$version" ] || fail "the installed ripple is not $version"
grep -q "GET /v$version/$name.tar.gz.sha256 " "$work/http.log" || fail "the .sha256 was not fetched"
# A damaged archive: refused, nothing left to install.
echo garbage >>"$host/v$version/$name.tar.gz"
if fetch "$work/damaged" >"$work/damaged.txt" 2>&1; then fail "a damaged archive was installed"; fi
grep -q "does not match its .sha256: not installed" "$work/damaged.txt" || fail "$(cat "$work/damaged.txt")"
[ ! -e "$work/damaged/$name.tar.gz" ] || fail "the damaged archive was kept"
# No archive published for this version: built from source (release-build.sh and dist.sh stand-ins).
rm -rf "${host:?}/v$version"
mkdir -p "$work/action/scripts"
cp "$root/VERSION" "$work/action/"
cp "$root/scripts/action-run.sh" "$work/action/scripts/"
printf '#!/bin/sh\necho "built from source into $1"\n' >"$work/action/scripts/release-build.sh"
printf '#!/bin/sh\necho "dist into $DIST_DIR"\n' >"$work/action/scripts/dist.sh"
chmod +x "$work/action/scripts/"*.sh
fetch "$work/unpublished" "$work/action" >"$work/unpublished.txt" || fail "$(cat "$work/unpublished.txt")"
grep -q "No release archive of Ripple $version is published at http://127.0.0.1:$port/v$version/$name.tar.gz: building it from source" \
  "$work/unpublished.txt" && grep -q "built from source into" "$work/unpublished.txt" && grep -q "dist into $work/unpublished" "$work/unpublished.txt" \
  || fail "no build from source where none is published: $(cat "$work/unpublished.txt")"
printf 'ok  %-17s %s\n' "action install" "the published archive downloaded and checked; a damaged one refused; none published: built"

echo "CI examples and generated pipelines are valid${2:+ (pipelines in $out)}"
