#!/usr/bin/env bash
# `make check-deb` (root, Debian/Ubuntu): the Debian package built, checked and installed for real.
#   scripts/check-deb.sh [BIN-DIR]     BIN-DIR: ripple and rippled from scripts/release-build.sh
# 1. Without dpkg-deb, `make deb` says so and exits 2.
# 2. scripts/deb.sh; its contents (dpkg -c); lintian (installed for the check, then purged) reports no error.
# 3. A list of the file system; `apt-get install ./ripple_…deb`; ripple --version, rippled check-config,
#    systemd-analyze verify on the installed unit; the user, its folders, the unit enabled and not started.
#    (The rippled user outlives the purge, as Debian leaves system users; the check deletes it if it made it.)
# 4. The conffile edited, the package installed over itself: the edit survives.
# 5. apt-get purge: the state is gone and the file system list is the one from before.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin_dir=${1:-$root/.build/release-bins}
version=$(tr -d ' \n' <"$root/VERSION")
work=$(mktemp -d "${TMPDIR:-/tmp}/ripple-check-deb.XXXXXX")
fail() { echo "check-deb: error: $*" >&2; exit 1; }
ok() { echo "ok  $*"; }
[[ "$(id -u)" == 0 ]] || { echo "check-deb: needs root (it installs and purges the package)" >&2; exit 3; }
command -v apt-get >/dev/null || { echo "check-deb: needs apt-get (Debian/Ubuntu)" >&2; exit 3; }
dpkg-query -W -f '${Package}\n' | sort >"$work/packages-before"
had_user=false
if getent passwd rippled >/dev/null; then had_user=true; fi
cleanup() {
  # Undo what the check installed: the package itself, and lintian with what it pulled in.
  if dpkg-query -W -f '${Status}' ripple 2>/dev/null | grep -q installed; then apt-get purge -y -qq ripple >/dev/null || true; fi
  dpkg-query -W -f '${Package}\n' | sort >"$work/packages-after"
  mapfile -t added < <(comm -13 "$work/packages-before" "$work/packages-after")
  if ((${#added[@]})); then
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${added[@]}" >/dev/null || true
    echo "purged what the check installed: ${#added[@]} package(s)"
  fi
  # The package leaves its system user on purge (Debian's practice); the check removes the one it made.
  if ! $had_user && getent passwd rippled >/dev/null; then
    deluser --system --quiet rippled >/dev/null 2>&1 || userdel rippled || true
    if getent group rippled >/dev/null; then delgroup --system --quiet rippled >/dev/null 2>&1 || groupdel rippled || true; fi
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# 1. No dpkg-deb: a PATH with every tool but it.
mkdir -p "$work/no-dpkg-deb"
for tool in /usr/bin/* /usr/sbin/*; do
  [[ "$(basename "$tool")" == dpkg-deb ]] || ln -sf "$tool" "$work/no-dpkg-deb/$(basename "$tool")"
done
status=0
PATH="$work/no-dpkg-deb" DIST_DIR="$work/never" make -s -C "$root" deb BIN_DIR="$bin_dir" >"$work/no-dpkg.txt" 2>&1 \
  || status=$?
grep -q 'make deb needs dpkg-deb' "$work/no-dpkg.txt" && [[ $status == 2 && ! -e "$work/never" ]] \
  || fail "make deb without dpkg-deb: exit $status, $(cat "$work/no-dpkg.txt")"
status=0
PATH="$work/no-dpkg-deb" "$root/scripts/deb.sh" "$bin_dir" >/dev/null 2>&1 || status=$?
[[ $status == 2 ]] || fail "scripts/deb.sh without dpkg-deb exited $status, not 2"
ok "without dpkg-deb, make deb says: $(grep -o 'make deb needs.*' "$work/no-dpkg.txt" | head -1) (exit 2)"

# 2. Built, listed, linted.
deb=$(DIST_DIR="$work/dist" "$root/scripts/deb.sh" "$bin_dir" | tail -1)
[[ "$(basename "$deb")" == "ripple_${version}_$(dpkg --print-architecture).deb" ]] || fail "package named $deb"
echo "== dpkg -c $(basename "$deb")"
dpkg -c "$deb" | tee "$work/contents.txt"
echo "== dpkg -I: $(dpkg-deb -f "$deb" Depends)"
for wanted in ./usr/bin/ripple ./usr/bin/rippled ./lib/systemd/system/rippled.service \
  ./usr/lib/systemd/user/rippled.service ./etc/ripple/rippled.yml ./usr/share/man/man1/ripple.1.gz \
  ./usr/share/bash-completion/completions/ripple ./usr/share/zsh/vendor-completions/_ripple \
  ./usr/share/fish/vendor_completions.d/ripple.fish; do
  awk '{ print $6 }' "$work/contents.txt" | grep -qx "$wanted" || fail "the package has no $wanted"
done
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/ripple/copyright >"$work/copyright"
grep -qx "License: Apache-2.0" "$work/copyright" || fail "the copyright file names no Apache-2.0 licence"
grep -q "/usr/share/common-licenses/Apache-2.0" "$work/copyright" || fail "the copyright file does not point at the licence's text"
[[ "$(dpkg-deb -f "$deb" Depends)" == *libgit2* ]] || fail "Depends names no libgit2: $(dpkg-deb -f "$deb" Depends)"
if ! command -v lintian >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null; }
fi
echo "== lintian $(basename "$deb")"
lintian --no-tag-display-limit "$deb" | tee "$work/lintian.txt" || true
if grep -q '^E:' "$work/lintian.txt"; then fail "lintian reports errors"; fi
ok "lintian: no error ($(grep -c '^W:' "$work/lintian.txt" || true) warning(s))"

# 3. Installed with apt, against a list of the file system taken before.
snapshot() {
  find /etc /usr /lib /opt /srv /var -xdev \
    \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache -o -path /var/log -o -path /var/tmp \
    -o -path /var/backups \
    -o -path /etc/ld.so.cache \) -prune -o -print 2>/dev/null | LC_ALL=C sort
  ls -d /var/cache/rippled /var/log/rippled 2>/dev/null || true
}
snapshot >"$work/fs-before"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null || fail "apt-get install $deb failed"
[[ "$(ripple --version)" == "$version" && "$(command -v ripple)" == /usr/bin/ripple ]] || fail "ripple --version: $(ripple --version)"
# --offline: the example config's remote is on the network, which a package check need not reach.
rippled check-config --offline --config /etc/ripple/rippled.yml >/dev/null \
  || fail "rippled check-config on the installed config"
systemd-analyze verify /lib/systemd/system/rippled.service || fail "systemd-analyze verify on the installed unit"
getent passwd rippled >/dev/null || fail "no rippled user"
for directory in /var/lib/rippled /var/cache/rippled /var/log/rippled; do
  [[ "$(stat -c %U:%a "$directory")" == rippled:750 ]] || fail "$directory: $(stat -c %U:%a "$directory")"
done
[[ "$(stat -c %U:%G:%a /etc/ripple/rippled.yml)" == root:rippled:640 ]] \
  || fail "/etc/ripple/rippled.yml is $(stat -c %U:%G:%a /etc/ripple/rippled.yml), not root:rippled:640 (it names secret files)"
[[ -L /etc/systemd/system/multi-user.target.wants/rippled.service ]] || fail "the service is not enabled"
if [[ -d /run/systemd/system ]] && systemctl is-active --quiet rippled; then fail "the install started the service"; fi
ok "installed: ripple $version, rippled check-config, systemd-analyze verify, user and folders, rippled.yml 0640, enabled, not started"

# 4. An edited conffile survives the package installed over itself.
echo "# edited by check-deb" >>/etc/ripple/rippled.yml
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --reinstall "$deb" >/dev/null || fail "reinstall failed"
tail -1 /etc/ripple/rippled.yml | grep -q 'edited by check-deb' || fail "the upgrade lost the edited rippled.yml"
[[ ! -e /etc/ripple/rippled.yml.dpkg-new && ! -e /etc/ripple/rippled.yml.dpkg-dist ]] || fail "a .dpkg-new/-dist was left"
echo "token" >/var/lib/rippled/runs.sqlite
ok "reinstalled over itself: the edited /etc/ripple/rippled.yml kept"

# 5. Removed (state kept), then purged: nothing left.
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq ripple >/dev/null
[[ -e /var/lib/rippled/runs.sqlite && -e /etc/ripple/rippled.yml && ! -e /usr/bin/ripple ]] \
  || fail "remove deleted the state or the config, or left the binary"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq ripple >/dev/null
snapshot >"$work/fs-after"
if ! diff "$work/fs-before" "$work/fs-after" >"$work/fs-diff"; then
  cat "$work/fs-diff" >&2
  fail "the purge left the file system different"
fi
ok "remove kept the state and config; purge left the file system as before ($(wc -l <"$work/fs-before") paths compared)"
echo "check-deb: ripple_${version} installs, upgrades over an edited conffile and purges cleanly"
