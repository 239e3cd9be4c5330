#!/usr/bin/env bash
# The steps of action.yml (the composite GitHub Action), kept here so they can be run and checked
# outside GitHub (scripts/check-ci-examples.sh does).
#   action-run.sh build-key   outputs key= and directory= for the ripple binary's cache
#   action-run.sh build       builds ripple (release) into $RIPPLE_BIN_DIR
#   action-run.sh cache-key   outputs key=, restore-prefix= and path= of the manifest cache
#   action-run.sh run         runs $RIPPLE_INPUT_COMMAND (affected|test|bootstrap); affected writes the
#                             outputs test-targets, filter, run-all (--format github) and matrix; test
#                             passes $RIPPLE_INPUT_TARGETS (a matrix entry's ids) as one --targets argument
# Inputs come as RIPPLE_INPUT_* variables; outputs go to $GITHUB_OUTPUT.
set -euo pipefail
step=${1:?usage: action-run.sh build-key|build|cache-key|run}
action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT must name the step outputs file}"
ripple() { "${RIPPLE_BIN_DIR:?}/ripple" "$@"; }

# The words of RIPPLE_INPUT_ARGS (split on whitespace, no globbing), and --config when given.
config_args=()
if [ -n "${RIPPLE_INPUT_CONFIG:-}" ]; then config_args=(--config "$RIPPLE_INPUT_CONFIG"); fi
extra_args=()
if [ -n "${RIPPLE_INPUT_ARGS:-}" ]; then read -r -a extra_args <<<"$RIPPLE_INPUT_ARGS"; fi

case "$step" in
  build-key)
    # Ripple's sources and the toolchain: a new Ripple version or Swift builds a new binary.
    sources=$(cd "$action_path" && find Package.swift Package.resolved Sources -type f 2>/dev/null \
      | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-32)
    toolchain=$(swift --version 2>/dev/null | sha256sum | cut -c1-16)
    echo "key=ripple-bin-$(uname -s)-$(uname -m)-$toolchain-$sources" >>"$GITHUB_OUTPUT"
    echo "directory=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ripple-bin" >>"$GITHUB_OUTPUT"
    ;;
  build)
    flags=(-c release --product ripple --package-path "$action_path")
    if [ "$(uname -s)" = Linux ]; then flags+=(--static-swift-stdlib); fi
    swift build "${flags[@]}"
    mkdir -p "$RIPPLE_BIN_DIR"
    cp "$(swift build "${flags[@]}" --show-bin-path)/ripple" "$RIPPLE_BIN_DIR/ripple"
    ;;
  cache-key)
    {
      echo "key=$(ripple cache key "${config_args[@]}")"
      echo "restore-prefix=$(ripple cache key --restore-prefix "${config_args[@]}")"
      echo "path=$(ripple cache path)"
    } >>"$GITHUB_OUTPUT"
    ;;
  run)
    base_args=()
    base=${RIPPLE_INPUT_BASE:-}
    # A push that creates a branch has no "before" commit: compare with the default branch instead.
    if [ -n "$base" ] && [ "$base" != 0000000000000000000000000000000000000000 ]; then base_args=(--base "$base"); fi
    case "${RIPPLE_INPUT_COMMAND:-affected}" in
      affected)
        ripple affected --format github "${base_args[@]}" "${config_args[@]}" "${extra_args[@]}"
        matrix=$(ripple affected --format matrix --shards "${RIPPLE_INPUT_SHARDS:-1}" "${base_args[@]}" \
          "${config_args[@]}" "${extra_args[@]}" 2>/dev/null)
        echo "matrix=$matrix" >>"$GITHUB_OUTPUT"
        ;;
      test)
        # The matrix entry's ids stay one argument (RIPPLE_INPUT_ARGS is split on whitespace).
        targets_args=()
        if [ -n "${RIPPLE_INPUT_TARGETS:-}" ]; then targets_args=(--targets "$RIPPLE_INPUT_TARGETS"); fi
        ripple test "${base_args[@]}" "${config_args[@]}" "${targets_args[@]}" "${extra_args[@]}"
        ;;
      bootstrap) ripple bootstrap "${config_args[@]}" "${extra_args[@]}" ;;
      *)
        echo "error: input command must be affected, test or bootstrap (got '$RIPPLE_INPUT_COMMAND')" >&2
        exit 2
        ;;
    esac
    ;;
  *) echo "error: unknown step $step" >&2; exit 2 ;;
esac
