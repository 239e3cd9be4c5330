#!/usr/bin/env bash
# Checks the systemd units (`make check-units`, run by `make test`):
#   1. `systemd-analyze verify` on systemd/rippled.service and systemd/rippled-user.service. verify
#      insists that ExecStart's binary exists, so it runs on copies whose ExecStart is an existing
#      executable. User=rippled stays: verify does not resolve users (a missing one is fine), and the
#      obvious stand-in, nobody, draws its own warning. verify exits 0 for many mistakes it only warns
#      about ("Unknown key", "Failed to parse …, ignoring"), so any message about our units fails.
#   2. `systemd-analyze security --offline=true systemd/rippled.service`: the overall exposure must be
#      at most $MAX_EXPOSURE (2.5).
#   3. scripts/test-install-daemon.sh (needs no systemd).
# Without systemd-analyze (macOS, minimal containers) 1 and 2 are skipped.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
max_exposure="${MAX_EXPOSURE:-2.5}"
export SYSTEMD_COLORS=0 SYSTEMD_PAGER=cat

failures=0
fail() {
  printf 'check-units: FAIL: %s\n' "$*" >&2
  failures=$((failures + 1))
}

if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "skipped: systemd-analyze not found"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/ripple-check-units.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  true_path="$(command -v true)"
  [[ "$true_path" == /* ]] || true_path=/bin/true
  for unit in rippled.service rippled-user.service; do
    # The copy hides ExecStart's path from verify, so check that it is absolute (or in %h) here.
    exec_start="$(grep -E '^ExecStart=' "$root/systemd/$unit" || true)"
    if ! grep -qE '^ExecStart=(/|%h/)[^ ]*rippled( |$)' <<<"$exec_start"; then
      fail "systemd/$unit: ExecStart must be one absolute path to rippled, found: ${exec_start:-nothing}"
    fi
    sed "s#^ExecStart=[^ ]*#ExecStart=$true_path#" "$root/systemd/$unit" >"$work/$unit"
  done

  # verify: prints "<file>:<line>: …" or "<unit>: …" for problems with our units, and may print notes
  # about unrelated units installed on this machine, which are shown but do not count.
  verify() { # unit, systemd-analyze options...
    local unit="$1" output status=0
    shift
    local command="systemd-analyze${*:+ $*} verify"
    output="$(systemd-analyze "$@" verify "$work/$unit" 2>&1)" || status=$?
    local ours
    ours="$(grep -F -- "$unit" <<<"$output" || true)"
    if [[ "$status" != 0 || -n "$ours" ]]; then
      fail "$command systemd/$unit (exit $status):"
      printf '%s\n' "${ours:-$output}" | sed 's/^/    /' >&2
    else
      echo "ok: $command systemd/$unit"
      if [[ -n "$output" ]]; then printf '%s\n' "$output" | sed 's/^/    note (other units): /'; fi
    fi
  }
  verify rippled.service
  # A user manager needs a runtime directory; a private one keeps this independent of any session.
  mkdir -m 0700 "$work/runtime"
  XDG_RUNTIME_DIR="$work/runtime" verify rippled-user.service --user

  # security: the last line reads "→ Overall exposure level for rippled.service: 1.3 OK 🙂".
  status=0
  report="$(cd "$root" && systemd-analyze security --offline=true systemd/rippled.service 2>&1)" || status=$?
  exposure="$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9][0-9]*\.[0-9]\).*/\1/p' <<<"$report")"
  if grep -qE "unrecognized option|Unknown option|invalid option" <<<"$report"; then
    echo "skipped: this systemd-analyze has no --offline (systemd < 250): $(systemd-analyze --version | head -1)"
  elif [[ -z "$exposure" ]]; then
    fail "systemd-analyze security --offline=true systemd/rippled.service printed no exposure (exit $status):"
    printf '%s\n' "$report" | tail -5 | sed 's/^/    /' >&2
  elif awk -v e="$exposure" -v max="$max_exposure" 'BEGIN { exit !(e <= max) }'; then
    echo "ok: systemd-analyze security --offline=true systemd/rippled.service: exposure $exposure (at most $max_exposure)"
  else
    fail "systemd/rippled.service exposure is $exposure, above $max_exposure; what is exposed:"
    grep -E '^✗' <<<"$report" | sed 's/^/    /' >&2
  fi
fi

if "$here/test-install-daemon.sh" >"${TMPDIR:-/tmp}/ripple-test-install-daemon.$$.log" 2>&1; then
  echo "ok: scripts/test-install-daemon.sh"
else
  fail "scripts/test-install-daemon.sh:"
  sed 's/^/    /' "${TMPDIR:-/tmp}/ripple-test-install-daemon.$$.log" >&2
fi
rm -f "${TMPDIR:-/tmp}/ripple-test-install-daemon.$$.log"

if ((failures > 0)); then
  echo "check-units: $failures check(s) failed" >&2
  exit 1
fi
