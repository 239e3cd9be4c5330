#!/usr/bin/env bash
# `make check-dist`: the release archive works where no Swift toolchain is installed.
#   scripts/check-dist.sh [BIN-DIR]     BIN-DIR: ripple and rippled from scripts/release-build.sh
# 1. `make dist` from those binaries; the archive's contents listed (tar tf).
# 2. Refused: a corrupt and a truncated copy fail `sha256sum -c` against the .sha256, and a damaged file
#    after extraction fails install.sh (exit 3); a missing libgit2 makes install.sh name its package.
# 3. Extracted, with the toolchain out of the binaries' reach (PATH without it, LD_LIBRARY_PATH unset, `ldd`
#    lists no libswift*/libFoundation*): `ripple affected` on a real multi-package repository (its manifests
#    still need a `swift` for `dump-package`: one symlink in an otherwise toolchain-free PATH), then, with the
#    toolchain folder itself hidden in a private mount namespace, `ripple changes`, `rippled --version` and
#    `rippled check-config` (and `ripple affected` exits 3 naming swift, as it does on a machine without it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin_dir=${1:-$root/.build/release-bins}
work=$(mktemp -d "${TMPDIR:-/tmp}/ripple-check-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "check-dist: error: $*" >&2; exit 1; }
ok() { echo "ok  $*"; }

archive=$(DIST_DIR="$work/dist" "$root/scripts/dist.sh" "$bin_dir" | tail -1)
name=$(basename "$archive" .tar.gz)
version=$(tr -d ' \n' <"$root/VERSION")
[[ "$name" == "ripple-$version-linux-$(uname -m)" ]] || fail "archive named $name"
echo "== $name.tar.gz ($(du -h "$archive" | cut -f1)): tar tf"
tar tf "$archive" | tee "$work/contents.txt"
(cd "$(dirname "$archive")" && sha256sum -c "$name.tar.gz.sha256") >/dev/null || fail "the archive fails its own .sha256"
ok "sha256sum -c $name.tar.gz.sha256"
for wanted in bin/ripple bin/rippled share/man/man1/ripple.1 share/man/man1/rippled.1 \
  share/bash-completion/completions/ripple share/zsh/site-functions/_ripple \
  share/fish/vendor_completions.d/ripple.fish share/ripple/systemd/rippled.service \
  share/ripple/systemd/rippled-user.service share/ripple/config/rippled.yml README.md LICENSE install.sh SHA256SUMS; do
  grep -qx "$name/$wanted" "$work/contents.txt" || fail "the archive has no $wanted"
done
ok "the archive holds the binaries, man pages, completions, units, configs, README, LICENSE, install.sh"

# 2. Damaged downloads are refused by the checksum.
mkdir "$work/bad"
cp "$archive" "$archive.sha256" "$work/bad/"
size=$(stat -c %s "$archive")
printf '\xff' | dd of="$work/bad/$name.tar.gz" bs=1 seek=$((size / 2)) conv=notrunc status=none
if (cd "$work/bad" && sha256sum -c "$name.tar.gz.sha256" >/dev/null 2>&1); then fail "a corrupt archive passed sha256sum -c"; fi
ok "a corrupt archive (one byte changed) fails sha256sum -c"
head -c $((size / 2)) "$archive" >"$work/bad/$name.tar.gz"
if (cd "$work/bad" && sha256sum -c "$name.tar.gz.sha256" >/dev/null 2>&1); then fail "a truncated archive passed sha256sum -c"; fi
if tar xzf "$work/bad/$name.tar.gz" -C "$work/bad" 2>/dev/null; then fail "tar extracted a truncated archive without error"; fi
ok "a truncated archive fails sha256sum -c (and tar)"
rm -rf "$work/bad" && mkdir "$work/bad"
tar xzf "$archive" -C "$work/bad"
echo "# edited" >>"$work/bad/$name/share/ripple/config/rippled.yml"
status=0
"$work/bad/$name/install.sh" --prefix "$work/bad/prefix" >"$work/bad/out" 2>&1 || status=$?
[[ $status == 3 ]] && grep -q 'do not match SHA256SUMS' "$work/bad/out" || fail "install.sh over a damaged file: exit $status, $(cat "$work/bad/out")"
[[ ! -e "$work/bad/prefix" ]] || fail "install.sh installed from a damaged archive"
ok "install.sh refuses a damaged extraction (exit 3, nothing installed)"

# 3. Extracted and installed; the toolchain out of reach.
tar xzf "$archive" -C "$work"
extracted="$work/$name"
"$extracted/install.sh" --prefix "$work/prefix" >/dev/null
[[ -x "$work/prefix/bin/ripple" && -f "$work/prefix/share/man/man1/rippled.1" ]] || fail "install.sh installed nothing"
ok "install.sh --prefix: $(cd "$work/prefix" && find . -type f | wc -l) files"
# A prefix this user may not write: one line naming it and what to do (exit 4), not an `install` error per file.
# As root, the check runs as nobody (root may write anywhere).
locked="$work/locked-prefix"
mkdir -p "$locked"
as_user=()
if [[ $(id -u) != 0 ]]; then
  chmod 0555 "$locked"
elif command -v setpriv >/dev/null; then
  chmod -R a+rX "$work"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [[ $(id -u) != 0 || ${#as_user[@]} -gt 0 ]]; then
  status=0
  "${as_user[@]}" "$extracted/install.sh" --prefix "$locked/usr" >"$work/locked.out" 2>&1 || status=$?
  [[ $status == 4 && $(wc -l <"$work/locked.out") == 1 ]] && grep -q "is not writable by .*re-run with sudo, or install for yourself with --prefix ~/.local" "$work/locked.out" \
    || fail "install.sh into a prefix it cannot write: exit $status, $(cat "$work/locked.out")"
  [[ ! -e "$locked/usr" ]] || fail "install.sh made folders in a prefix it cannot write"
  ok "install.sh into a prefix it cannot write: one line, sudo or --prefix ~/.local (exit 4)"
fi
swift_path=$(command -v swift || true)
toolchain=""
if [[ -n "$swift_path" ]]; then toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_path")")")"); fi
echo "== ldd bin/ripple bin/rippled"
ldd "$extracted/bin/ripple" "$extracted/bin/rippled" | tee "$work/ldd.txt"
if grep -Eq 'libswift|libFoundation|libdispatch|libBlocksRuntime' "$work/ldd.txt"; then fail "a binary loads the Swift runtime"; fi
if [[ -n "$toolchain" && "$toolchain" != /usr ]] && grep -q "$toolchain" "$work/ldd.txt"; then fail "a binary loads from $toolchain"; fi
ok "ldd lists no libswift*, libFoundation*, nothing from ${toolchain:-the toolchain}"

# A job's environment: no toolchain on PATH or LD_LIBRARY_PATH, only a `swift` for manifests.
mkdir -p "$work/swift-only"
if [[ -n "$swift_path" ]]; then ln -s "$swift_path" "$work/swift-only/swift"; fi
clean_path="$work/prefix/bin:$work/swift-only:/usr/local/bin:/usr/bin:/bin"
[[ -z "$toolchain" || "$toolchain" == /usr || "$clean_path" != *"$toolchain"* ]] || fail "PATH still names $toolchain"
job() { env -i HOME="$work/home" PATH="$clean_path" RIPPLE_CACHE_DIR="$work/cache" TMPDIR="$work" "$@"; }
repo="$work/repo"
python3 "$root/scripts/fixture_repo.py" "$repo" --features 3 >/dev/null
echo "// faster" >>"$repo/Packages/Core/Sources/CoreFeature1/CoreFeature1.swift"
(cd "$repo" && job ripple affected --format json) >"$work/affected.json" || fail "ripple affected failed"
targets=$(python3 -c 'import json,sys; print(",".join(sorted(t["name"] for t in json.load(open(sys.argv[1]))["testTargets"])))' "$work/affected.json")
[[ "$targets" == *CoreFeature1Tests* ]] || fail "ripple affected did not select CoreFeature1Tests: $targets"
ok "ripple affected from the archive: $targets"
job ripple --version --verbose

# The toolchain folder itself hidden (a private mount namespace), when this machine allows one.
if [[ -n "$toolchain" && "$toolchain" != /usr ]] && unshare -m true 2>/dev/null; then
  hidden() { unshare -m sh -c 'mount -t tmpfs none "$0" && exec "$@"' "$toolchain" env -i HOME="$work/home" \
    PATH="$clean_path" RIPPLE_CACHE_DIR="$work/cache" TMPDIR="$work" "$@"; }
  hidden sh -c '! command -v swift-driver >/dev/null && ! test -e "$0/usr/bin/swift"' "$toolchain" || fail "$toolchain is still visible"
  # Manifests need `swift` (dump-package): with none at all, a clear environment error, not a loader crash.
  status=0
  (cd "$repo" && hidden ripple affected --format json) >/dev/null 2>"$work/affected-hidden.txt" || status=$?
  [[ $status == 3 ]] && grep -qi swift "$work/affected-hidden.txt" \
    || fail "ripple affected without any swift: exit $status, $(cat "$work/affected-hidden.txt")"
  (cd "$repo" && hidden ripple changes >/dev/null) || fail "ripple changes failed with $toolchain hidden"
  [[ "$(hidden rippled --version)" == "$version" ]] || fail "rippled --version with $toolchain hidden"
  hidden rippled check-config --offline --config "$extracted/share/ripple/config/rippled.yml" >/dev/null \
    || fail "rippled check-config failed with $toolchain hidden"
  ok "with $toolchain hidden: ripple changes, rippled --version, rippled check-config; ripple affected says: $(head -1 "$work/affected-hidden.txt")"

  # A machine without libgit2: its file covered by an empty one, so the loader fails as when it is absent.
  libgit2=$(awk '$2 == "=>" && $1 ~ /^libgit2/ { print $3; exit }' "$work/ldd.txt")
  status=0
  unshare -m sh -c 'mount --bind /dev/null "$0" && exec "$@"' "$(readlink -f "$libgit2")" \
    "$extracted/install.sh" --check >"$work/nolib.txt" 2>&1 || status=$?
  package=$(awk '$1 ~ /^libgit2/ { print $2 }' "$extracted/share/ripple/runtime-packages")
  [[ $status == 3 && -n "$package" ]] && grep -q "apt-get install $package" "$work/nolib.txt" \
    || fail "install.sh without libgit2: exit $status: $(cat "$work/nolib.txt")"
  ok "without libgit2, install.sh says: $(grep 'install it' "$work/nolib.txt" | sed 's/^ *//')"
else
  echo "skip: no private mount namespace here (unshare -m): the hidden-toolchain and missing-libgit2 runs"
fi
# The GitHub Action's install step (scripts/action-run.sh install) on the archive as actions/cache restores
# it: checked, extracted, bin-dir output; a damaged cache entry is refused.
export GITHUB_OUTPUT="$work/github-output" RUNNER_TEMP="$work/runner"
mkdir -p "$RUNNER_TEMP" && : >"$GITHUB_OUTPUT"
RIPPLE_DIST_DIR=$(dirname "$archive") "$root/scripts/action-run.sh" install >/dev/null
action_bin=$(sed -n 's/^bin-dir=//p' "$GITHUB_OUTPUT")
[[ "$("$action_bin/ripple" --version)" == "$version" ]] || fail "the action's install step gave no working ripple: $action_bin"
mkdir "$work/damaged-cache"
head -c $((size / 3)) "$archive" >"$work/damaged-cache/$name.tar.gz"
cp "$archive.sha256" "$work/damaged-cache/"
status=0
RIPPLE_DIST_DIR="$work/damaged-cache" "$root/scripts/action-run.sh" install >/dev/null 2>"$work/action.txt" || status=$?
[[ $status == 3 ]] && grep -q 'does not match its .sha256' "$work/action.txt" \
  || fail "the action's install step over a truncated archive: exit $status, $(cat "$work/action.txt")"
ok "the action's install step: extracted to $action_bin; a truncated cached archive refused (exit 3)"
echo "check-dist: $name.tar.gz works without the toolchain"
