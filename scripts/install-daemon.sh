#!/usr/bin/env bash
# Installs rippled, its systemd unit and its config (`make install-daemon`; see systemd/README.md).
#
#   scripts/install-daemon.sh            system service: /usr/local/bin/rippled,
#                                        /etc/systemd/system/rippled.service, /etc/ripple/rippled.yml
#   scripts/install-daemon.sh --user     user service (also USER_UNIT=1): ~/.local/bin/rippled,
#                                        ~/.config/systemd/user/rippled.service, ~/.config/ripple/rippled.yml
#
# Environment: DESTDIR (stage into a root: only copies files, creates no user, reloads nothing),
# PREFIX (default /usr/local, or ~/.local with --user), RIPPLED_BINARY (install this binary instead of
# building one), SWIFT, BUILD_FLAGS, RELEASE_FLAGS (as in the Makefile).
#
# An existing rippled.yml is never overwritten: when it differs from the new default, the new default is
# installed next to it as rippled.yml.dist.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

user_unit="${USER_UNIT:-0}"
for argument in "$@"; do
  case "$argument" in
    --user) user_unit=1 ;;
    -h | --help)
      sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "install-daemon: unknown argument '$argument' (expected --user)" >&2
      exit 2
      ;;
  esac
done
case "$user_unit" in 1 | yes | true) user_unit=1 ;; *) user_unit=0 ;; esac

destdir="${DESTDIR:-}"
swift="${SWIFT:-swift}"
if [[ "$user_unit" == 1 ]]; then
  prefix="${PREFIX:-$HOME/.local}"
  config_home="${XDG_CONFIG_HOME:-$HOME/.config}"
  unit_source="$root/systemd/rippled-user.service"
  unit_dir="$config_home/systemd/user"
  config_dir="$config_home/ripple"
  default_exec="$HOME/.local/bin/rippled"
else
  prefix="${PREFIX:-/usr/local}"
  unit_source="$root/systemd/rippled.service"
  unit_dir="/etc/systemd/system"
  config_dir="/etc/ripple"
  default_exec="/usr/local/bin/rippled"
fi
binary_path="$prefix/bin/rippled"

say() { printf '%s\n' "$*"; }
fail() {
  printf 'install-daemon: %s\n' "$*" >&2
  exit 1
}

# A real system install writes to /etc and creates a user: it needs root.
if [[ -z "$destdir" && "$user_unit" == 0 && "$(id -u)" != 0 ]]; then
  fail "installing the system service needs root: run 'sudo make install-daemon', or 'make install-daemon USER_UNIT=1' for a user service"
fi

# 1. The binary: built here unless RIPPLED_BINARY names one.
if [[ -n "${RIPPLED_BINARY:-}" ]]; then
  [[ -x "$RIPPLED_BINARY" ]] || fail "RIPPLED_BINARY=$RIPPLED_BINARY is not an executable file"
  built="$RIPPLED_BINARY"
else
  release_flags="${RELEASE_FLAGS-}"
  if [[ -z "${RELEASE_FLAGS+set}" && "$(uname)" == Linux ]]; then release_flags="--static-swift-stdlib"; fi
  # shellcheck disable=SC2086 # the flags are word lists
  (cd "$root" && "$swift" build -c release --product rippled $release_flags ${BUILD_FLAGS:-})
  # shellcheck disable=SC2086
  built="$(cd "$root" && "$swift" build -c release --show-bin-path $release_flags ${BUILD_FLAGS:-})/rippled"
  [[ -x "$built" ]] || fail "the build did not produce $built"
fi
install -d "$destdir$prefix/bin"
install -m 0755 "$built" "$destdir$binary_path"
say "installed $destdir$binary_path"

# 2. The unit, pointing at where the binary went.
install -d "$destdir$unit_dir"
unit_tmp="$(mktemp)"
trap 'rm -f "$unit_tmp"' EXIT
if [[ "$binary_path" == "$default_exec" ]]; then
  cp "$unit_source" "$unit_tmp"
else
  sed "s#^ExecStart=[^ ]*#ExecStart=$binary_path#" "$unit_source" >"$unit_tmp"
fi
install -m 0644 "$unit_tmp" "$destdir$unit_dir/rippled.service"
say "installed $destdir$unit_dir/rippled.service"

# 3. The config, never over an edited one.
config="$destdir$config_dir/rippled.yml"
install -d -m 0755 "$destdir$config_dir"
if [[ ! -e "$config" ]]; then
  install -m 0644 "$root/Config/rippled.yml" "$config"
  say "installed $config"
elif cmp -s "$root/Config/rippled.yml" "$config"; then
  say "kept $config (already the default)"
else
  install -m 0644 "$root/Config/rippled.yml" "$config.dist"
  say "kept your edited $config; the new default is $config.dist (compare: diff -u $config $config.dist)"
fi

# 4. The system user, for a real system install.
if [[ -z "$destdir" && "$user_unit" == 0 ]] && ! getent passwd rippled >/dev/null 2>&1; then
  nologin="$(command -v nologin || echo /usr/sbin/nologin)"
  if command -v useradd >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/rippled --no-create-home --shell "$nologin" \
      --comment "Ripple daemon" rippled
    say "created the system user rippled (home /var/lib/rippled, created by systemd on first start)"
  else
    say "warning: useradd not found; create a system user and group 'rippled' with home /var/lib/rippled" >&2
  fi
fi

# 5. Tell systemd, when it is running and this is not a staged install.
systemd_running=0
if [[ -z "$destdir" && "$(cat /proc/1/comm 2>/dev/null || true)" == systemd ]]; then systemd_running=1; fi
if [[ "$systemd_running" == 1 ]]; then
  if [[ "$user_unit" == 1 ]]; then
    systemctl --user daemon-reload && say "ran systemctl --user daemon-reload" ||
      say "warning: systemctl --user daemon-reload failed (no user manager?); run it after logging in" >&2
  else
    systemctl daemon-reload && say "ran systemctl daemon-reload"
  fi
fi

# 6. What to do next.
say ""
if [[ -n "$destdir" ]]; then
  say "Staged into $destdir; nothing was started."
elif [[ "$user_unit" == 1 ]]; then
  say "Next:"
  say "  \$EDITOR $config_dir/rippled.yml        # the checkouts to watch (path: ...)"
  say "  systemctl --user enable --now rippled"
  say "  journalctl --user -u rippled -f"
else
  say "Next:"
  say "  sudoedit $config_dir/rippled.yml        # the repositories to follow"
  say "  sudo systemctl enable --now rippled"
  say "  systemctl status rippled; journalctl -u rippled -f"
  say "  repositories outside /var/cache/rippled: sudo systemctl edit rippled (see systemd/README.md)"
fi
if [[ "$systemd_running" == 0 && -z "$destdir" ]]; then
  scope=""
  if [[ "$user_unit" == 1 ]]; then scope=" --user"; fi
  say "(systemd is not running here: run 'systemctl$scope daemon-reload' where it is)"
fi
