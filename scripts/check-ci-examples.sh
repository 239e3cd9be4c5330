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
echo "CI examples and generated pipelines are valid${2:+ (pipelines in $out)}"
