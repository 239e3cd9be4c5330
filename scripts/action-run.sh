#!/usr/bin/env bash
# The steps of action.yml (the composite GitHub Action), kept here so they can be run and checked
# outside GitHub (scripts/check-ci-examples.sh does).
#   action-run.sh build-key   outputs key= (Ripple's version, sources and toolchain) and directory= for
#                             the cache of Ripple's release archive
#   action-run.sh build       on a cache miss: the release archive (`make dist`) into $RIPPLE_DIST_DIR
#   action-run.sh install     the archive in $RIPPLE_DIST_DIR checked against its .sha256, extracted and
#                             checked (install.sh --check); outputs bin-dir= (seconds, no build)
#   action-run.sh cache-key   outputs key=, restore-prefix= and path= of the manifest cache
#   action-run.sh run         runs $RIPPLE_INPUT_COMMAND (affected|test|bootstrap); affected writes the
#                             outputs test-targets, filter, run-all (--format github) and matrix; test
#                             passes $RIPPLE_INPUT_TARGETS (a matrix entry's ids) as one --targets argument
# Inputs come as RIPPLE_INPUT_* variables; outputs go to $GITHUB_OUTPUT.
set -euo pipefail
step=${1:?usage: action-run.sh build-key|build|install|cache-key|run}
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
    # Ripple's version, sources and the toolchain: a new Ripple or Swift makes a new archive, once.
    version=$(tr -d ' \n' <"$action_path/VERSION")
    sources=$(cd "$action_path" && find VERSION Package.swift Package.resolved Sources packaging scripts -type f 2>/dev/null \
      | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
    toolchain=$(swift --version 2>/dev/null | sha256sum | cut -c1-16)
    echo "key=ripple-dist-$version-$(uname -s)-$(uname -m)-$toolchain-$sources" >>"$GITHUB_OUTPUT"
    echo "directory=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ripple-dist" >>"$GITHUB_OUTPUT"
    ;;
  build)
    bins="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ripple-release-bins"
    "$action_path/scripts/release-build.sh" "$bins"
    DIST_DIR="${RIPPLE_DIST_DIR:?}" "$action_path/scripts/dist.sh" "$bins"
    ;;
  install)
    cd "${RIPPLE_DIST_DIR:?}"
    archives=(ripple-*-linux-*.tar.gz)
    [ -f "${archives[0]}" ] || { echo "error: no Ripple archive in $RIPPLE_DIST_DIR" >&2; exit 3; }
    sha256sum --check --quiet "${archives[0]}.sha256" \
      || { echo "error: ${archives[0]} does not match its .sha256: a damaged cache or download" >&2; exit 3; }
    into="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ripple"
    rm -rf "$into" && mkdir -p "$into"
    tar -xzf "${archives[0]}" -C "$into"
    extracted=("$into"/ripple-*)
    "${extracted[0]}/install.sh" --check
    echo "bin-dir=${extracted[0]}/bin" >>"$GITHUB_OUTPUT"
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
        # The job's summary page: what was compared, the selected test targets with their reasons, the graph.
        if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
          ripple affected --format markdown "${base_args[@]}" "${config_args[@]}" "${extra_args[@]}" \
            >>"$GITHUB_STEP_SUMMARY" 2>/dev/null || true
        fi
        ;;
      test)
        # The matrix entry's ids stay one argument (RIPPLE_INPUT_ARGS is split on whitespace).
        targets_args=()
        if [ -n "${RIPPLE_INPUT_TARGETS:-}" ]; then targets_args=(--targets "$RIPPLE_INPUT_TARGETS"); fi
        summary_args=()
        if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then summary_args=(--summary-md "$GITHUB_STEP_SUMMARY"); fi
        ripple test "${base_args[@]}" "${config_args[@]}" "${targets_args[@]}" "${summary_args[@]}" "${extra_args[@]}"
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
