#!/usr/bin/env bash
# Tests scripts/install-daemon.sh in a temporary DESTDIR with a fake binary: what lands where, that an
# edited rippled.yml survives a second install (the new default goes to rippled.yml.dist), that a
# staged install neither creates users nor talks to systemd, and the user-service layout.
# Exits non-zero on the first failure. Run by `make check-units`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
install_daemon="$here/install-daemon.sh"

unset PREFIX USER_UNIT DESTDIR RIPPLED_BINARY
work="$(mktemp -d "${TMPDIR:-/tmp}/ripple-install-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT

failures=0
check() { # description, command...
  local description="$1"
  shift
  if "$@"; then
    printf '  ok    %s\n' "$description"
  else
    printf '  FAIL  %s\n' "$description" >&2
    failures=$((failures + 1))
  fi
}
contains() { grep -qF -- "$2" "$1"; }

# A fake rippled, and fake useradd/systemctl that record being called: a staged install must not.
printf '#!/bin/sh\necho fake rippled\n' >"$work/rippled"
chmod +x "$work/rippled"
mkdir "$work/bin"
for tool in useradd systemctl; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$tool" "$work" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
run() { # destdir, extra args... ; output goes to $work/out
  local destdir="$1"
  shift
  PATH="$work/bin:$PATH" DESTDIR="$destdir" RIPPLED_BINARY="$work/rippled" "$install_daemon" "$@" >"$work/out" 2>&1 ||
    {
      cat "$work/out" >&2
      return 1
    }
}

echo "system service into DESTDIR"
dest="$work/root"
check "first install succeeds" run "$dest"
check "binary installed and executable" test -x "$dest/usr/local/bin/rippled"
check "binary is the given one" cmp -s "$work/rippled" "$dest/usr/local/bin/rippled"
check "unit installed" cmp -s "$root/systemd/rippled.service" "$dest/etc/systemd/system/rippled.service"
check "config installed" cmp -s "$root/Config/rippled.yml" "$dest/etc/ripple/rippled.yml"
check "no .dist on a fresh install" test ! -e "$dest/etc/ripple/rippled.yml.dist"
check "second install of an unedited config keeps it quietly" run "$dest"
check "  and says so" contains "$work/out" "already the default"
check "  and makes no .dist" test ! -e "$dest/etc/ripple/rippled.yml.dist"

printf '\n# edited by the operator\nconcurrency: 3\n' >>"$dest/etc/ripple/rippled.yml"
cp "$dest/etc/ripple/rippled.yml" "$work/edited.yml"
check "install over an edited config succeeds" run "$dest"
check "the edit survived" cmp -s "$work/edited.yml" "$dest/etc/ripple/rippled.yml"
check "the new default is rippled.yml.dist" cmp -s "$root/Config/rippled.yml" "$dest/etc/ripple/rippled.yml.dist"
check "the output names the .dist file" contains "$work/out" "rippled.yml.dist"
check "a staged install creates no user and does not call systemctl" test ! -e "$work/calls"

echo "PREFIX=/usr"
dest="$work/root-usr"
install_with_usr_prefix() { PREFIX=/usr run "$@"; }
check "install succeeds" install_with_usr_prefix "$dest"
check "binary in /usr/bin" test -x "$dest/usr/bin/rippled"
check "ExecStart follows the binary" contains "$dest/etc/systemd/system/rippled.service" \
  "ExecStart=/usr/bin/rippled --config /etc/ripple/rippled.yml"

echo "user service into DESTDIR"
dest="$work/root-user"
install_as() { # home, destdir, args...
  local home="$1"
  shift
  HOME="$home" XDG_CONFIG_HOME="" PREFIX="" run "$@"
}
check "install --user succeeds" install_as /home/dev "$dest" --user
check "binary in ~/.local/bin" test -x "$dest/home/dev/.local/bin/rippled"
check "user unit in ~/.config/systemd/user" \
  cmp -s "$root/systemd/rippled-user.service" "$dest/home/dev/.config/systemd/user/rippled.service"
check "config in ~/.config/ripple" cmp -s "$root/Config/rippled.yml" "$dest/home/dev/.config/ripple/rippled.yml"
install_user_unit_1() { USER_UNIT=1 install_as /home/dev2 "$@"; }
check "USER_UNIT=1 is the same as --user" install_user_unit_1 "$dest"
check "  user unit installed" test -e "$dest/home/dev2/.config/systemd/user/rippled.service"

echo "building (a fake swift)"
mkdir -p "$work/fake-build"
cp "$work/rippled" "$work/fake-build/rippled"
printf '#!/bin/sh\necho "swift $*" >>"%s/swift-calls"\ncase "$*" in *--show-bin-path*) echo "%s/fake-build" ;; esac\n' \
  "$work" "$work" >"$work/bin/swift"
chmod +x "$work/bin/swift"
build_and_install() { # destdir, release flags
  PATH="$work/bin:$PATH" DESTDIR="$1" SWIFT=swift RELEASE_FLAGS="$2" "$install_daemon" >"$work/out" 2>&1
}
check "install without RIPPLED_BINARY builds and succeeds" build_and_install "$work/root-built" --static-swift-stdlib
check "  swift build -c release --product rippled with the release flags" \
  contains "$work/swift-calls" "swift build -c release --product rippled --static-swift-stdlib"
check "  installs what the build produced" test -x "$work/root-built/usr/local/bin/rippled"

echo "bad input"
check "a missing RIPPLED_BINARY fails" bash -c \
  "RIPPLED_BINARY='$work/nope' DESTDIR='$work/x' '$install_daemon' >/dev/null 2>&1; test \$? -ne 0"
check "an unknown argument fails" bash -c "DESTDIR='$work/x' '$install_daemon' --frobnicate >/dev/null 2>&1; test \$? -eq 2"

if ((failures > 0)); then
  echo "test-install-daemon: $failures check(s) failed" >&2
  exit 1
fi
echo "test-install-daemon: all checks passed"
