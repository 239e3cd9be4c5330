#!/usr/bin/env bash
# The steps of action.yml (the composite GitHub Action), kept here so they can be run and checked
# outside GitHub (scripts/check-ci-examples.sh does, against a loopback server standing in for the
# release host).
#   action-run.sh build-key   outputs key= (Ripple's version, system and architecture, and its sources;
#                             on macOS the toolchain too) and directory= for the cache of Ripple's binaries
#   action-run.sh fetch       on a cache miss, into $RIPPLE_DIST_DIR. Linux: the published release archive
#                             of this version, $RIPPLE_RELEASE_URL/v<version>/ripple-<version>-linux-<arch>.tar.gz,
#                             and its .sha256, checked; only when none is published (HTTP 404) is it built
#                             from source (`make dist`, ~30 min on 2 cores, then cached). macOS: Ripple
#                             publishes Linux archives only, so ripple is built from source with the
#                             runner's toolchain (cached per version and toolchain). `build` is the
#                             from-source half alone.
#   action-run.sh install     Linux: the archive in $RIPPLE_DIST_DIR checked against its .sha256, extracted
#                             and checked (install.sh --check); macOS: the binary built there. Outputs
#                             bin-dir= (seconds, no build)
#   action-run.sh cache-key   outputs key=, restore-prefix= and path= of the manifest cache
#   action-run.sh run         runs $RIPPLE_INPUT_COMMAND (affected|test|bootstrap); affected writes the
#                             outputs test-targets, filter, run-all (--format github) and matrix; test
#                             passes $RIPPLE_INPUT_TARGETS (a matrix entry's ids) as one --targets argument
# Inputs come as RIPPLE_INPUT_* variables (and RIPPLE_RELEASE_URL, the release-url input); outputs go to
# $GITHUB_OUTPUT.
set -euo pipefail
step=${1:?usage: action-run.sh build-key|fetch|build|install|cache-key|run}
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
    # Ripple's version and sources (fixed for a release tag): a new Ripple makes a new cache entry, once.
    # The Linux archive links the Swift runtime statically; a macOS build uses the runner's toolchain.
    version=$(tr -d ' \n' <"$action_path/VERSION")
    sources=$(cd "$action_path" && find VERSION Package.swift Package.resolved Sources packaging scripts -type f 2>/dev/null \
      | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
    key="ripple-dist-$version-$(uname -s)-$(uname -m)-$sources"
    if [ "$(uname -s)" = Darwin ]; then key="$key-$(swift --version 2>/dev/null | shasum -a 256 | cut -c1-16)"; fi
    echo "key=$key" >>"$GITHUB_OUTPUT"
    echo "directory=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ripple-dist" >>"$GITHUB_OUTPUT"
    ;;
  fetch)
    version=$(tr -d ' \n' <"$action_path/VERSION")
    dist="${RIPPLE_DIST_DIR:?}"
    mkdir -p "$dist"
    if [ "$(uname -s)" = Darwin ]; then
      echo "::notice::Ripple publishes Linux release archives only: on this macOS runner the action builds ripple $version from source with the runner's Swift (several minutes, once: cached per version and toolchain)."
      (cd "$action_path" && swift build -c release --product ripple)
      mkdir -p "$dist/bin"
      cp "$(cd "$action_path" && swift build -c release --show-bin-path)/ripple" "$dist/bin/"
      exit 0
    fi
    base=${RIPPLE_RELEASE_URL:-https://github.com/ripple-swift/ripple/releases/download}
    archive="ripple-$version-linux-$(uname -m).tar.gz"
    url="${base%/}/v$version/$archive"
    download() { # download URL FILE: prints the HTTP status (000: no answer)
      curl --silent --show-error --location --retry 3 --retry-connrefused --output "$2" --write-out '%{http_code}' "$1" \
        2>>"$dist/.download-errors" || true
    }
    command -v curl >/dev/null || { echo "error: the action downloads Ripple with curl, which this runner lacks" >&2; exit 3; }
    status=$(download "$url" "$dist/$archive")
    case "$status" in
      200)
        sum_status=$(download "$url.sha256" "$dist/$archive.sha256")
        [ "$sum_status" = 200 ] || { echo "error: $url.sha256 answered HTTP $sum_status: Ripple's archive cannot be checked, so it is not installed" >&2; exit 3; }
        (cd "$dist" && sha256sum --check --quiet "$archive.sha256") \
          || { echo "error: $url does not match its .sha256: not installed (a damaged download or release; run again)" >&2; rm -f "$dist/$archive"; exit 3; }
        echo "downloaded $archive (ripple $version, checked against its .sha256) from $base"
        ;;
      404)
        rm -f "$dist/$archive"
        echo "::notice::No release archive of Ripple $version is published at $url: building it from source (about 30 minutes on 2 cores, once: the archive is cached for this version)."
        "$0" build
        ;;
      *)
        echo "error: could not download $url (HTTP $status): $(tail -1 "$dist/.download-errors" 2>/dev/null)" >&2
        echo "  the release host is unreachable or failing; run the job again, or set the action's release-url input to a mirror" >&2
        exit 3
        ;;
    esac
    rm -f "$dist/.download-errors"
    ;;
  build)
    bins="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ripple-release-bins"
    "$action_path/scripts/release-build.sh" "$bins"
    DIST_DIR="${RIPPLE_DIST_DIR:?}" "$action_path/scripts/dist.sh" "$bins"
    ;;
  install)
    if [ "$(uname -s)" = Darwin ]; then
      "${RIPPLE_DIST_DIR:?}/bin/ripple" --version
      echo "bin-dir=$RIPPLE_DIST_DIR/bin" >>"$GITHUB_OUTPUT"
      exit 0
    fi
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
