#!/usr/bin/env bash
# tests/stock-debian.sh [--user] [DIR] — the README's two commands on a stock Debian 12, as a
# newcomer runs them: a fresh bookworm (debootstrap) with only git and ca-certificates added, this
# repository cloned into it (its committed HEAD) with ../shared copied beside it, then
# `./athena demo` and `./athena test`. Prints both commands' last lines and wall times, and exits
# non-zero when either failed.
#
#   --user   run both commands as an ordinary user with sudo (the path a desktop user takes);
#            default: as root.
#   DIR      where the chroot lives (default /var/tmp/athena-bookworm); reused when it exists,
#            so only the first run pays for debootstrap. Delete it for a really fresh machine.
#
# Needs root (debootstrap, chroot, mounts) and network access to the Debian mirror this machine's
# apt uses (read from /etc/apt/sources.list.d/*.sources, else /etc/apt/sources.list). Slow: about
# 30 minutes on 2 cores for the first run, debootstrap apart (583 packages, every build, every
# suite), so it is not part of CI; run it before calling the newcomer's path fixed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AS_USER=0
if [ "${1:-}" = "--user" ]; then AS_USER=1; shift; fi
DIR="${1:-/var/tmp/athena-bookworm}"
SUITE=bookworm

say() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
die() { printf '\033[31mstock-debian:\033[0m %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot and bind mounts need it)"
[ -d "$ROOT/../shared" ] || die "$ROOT/../shared is missing (it is copied beside the clone)"

# The mirrors this machine's apt uses: the main archive and, when listed, the security archive.
mirror_of() {  # grep pattern for the URI -> first matching URI of a bookworm source
  local uri=""
  if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
    # One stanza per paragraph (and per file); the first bookworm stanza whose URI matches.
    uri="$(awk -v pat="$1" '
      function done_stanza() { if (u ~ pat && s ~ /bookworm/) { print u; found = 1 } u = ""; s = "" }
      found { exit }
      FNR == 1 && NR > 1 { done_stanza() }
      /^URIs:/ { u = $2 } /^Suites:/ { s = $0 }
      /^[[:space:]]*$/ { done_stanza() }
      END { if (!found) done_stanza() }' /etc/apt/sources.list.d/*.sources | head -1)"
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri="$(awk -v pat="$1" '$1 == "deb" && $2 ~ pat && $3 ~ /bookworm/ { print $2; exit }' /etc/apt/sources.list)"
  fi
  echo "$uri"
}
MIRROR="$(mirror_of 'debian/?$')"
SECURITY="$(mirror_of 'debian-security/?$')"
[ -n "$MIRROR" ] || die "no bookworm mirror found in this machine's apt sources"

MOUNTS=()
cleanup() {
  local i
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() {  # src dest
  mkdir -p "$2"
  mount --bind "$1" "$2"
  MOUNTS+=("$2")
}

if [ ! -f "$DIR/etc/debian_version" ]; then
  command -v debootstrap >/dev/null || { say "Installing debootstrap"; apt-get install -y debootstrap; }
  say "debootstrap $SUITE into $DIR from $MIRROR"
  mkdir -p "$DIR"
  debootstrap "$SUITE" "$DIR" "$MIRROR"
fi

say "Preparing the chroot (mounts, apt sources, resolver, CA)"
# The chroot's / must be a mount point for unshare (tests/node18/run.sh): bind it onto itself.
bind "$DIR" "$DIR"
bind /proc "$DIR/proc"
bind /sys "$DIR/sys"
bind /dev "$DIR/dev"
bind /dev/pts "$DIR/dev/pts"
bind /dev/shm "$DIR/dev/shm"
cp -f /etc/resolv.conf "$DIR/etc/resolv.conf"
{
  printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$MIRROR" "$SUITE" "$SUITE"
  if [ -n "$SECURITY" ]; then
    printf '\nTypes: deb\nURIs: %s\nSuites: %s-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$SECURITY" "$SUITE"
  fi
} > "$DIR/etc/apt/sources.list.d/debian.sources"
rm -f "$DIR/etc/apt/sources.list"
# A machine whose HTTPS goes through a proxy with its own CA: the chroot trusts it too (a machine
# on an ordinary network has none here, and nothing is copied).
mkdir -p "$DIR/usr/local/share/ca-certificates"
cp -f /usr/local/share/ca-certificates/*.crt "$DIR/usr/local/share/ca-certificates/" 2>/dev/null || true

# Commands inside the chroot get a clean environment, plus the proxy settings of this one.
in_chroot() {  # command...
  local env=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM="${TERM:-dumb}"
             DEBIAN_FRONTEND=noninteractive NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
  local v
  for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    if [ -n "${!v:-}" ]; then env+=("$v=${!v}"); fi
  done
  chroot "$DIR" /usr/bin/env -i "${env[@]}" "$@"
}

say "Inside: apt-get update; install only git and ca-certificates"
in_chroot apt-get update -q
in_chroot apt-get install -y -q --no-install-recommends git ca-certificates
in_chroot update-ca-certificates >/dev/null

# Where the newcomer works: /root as root, or the home of a user with sudo.
if [ "$AS_USER" -eq 1 ]; then
  in_chroot apt-get install -y -q --no-install-recommends sudo
  in_chroot id newcomer >/dev/null 2>&1 || in_chroot useradd -m -s /bin/bash newcomer
  echo 'newcomer ALL=(ALL) NOPASSWD:ALL' > "$DIR/etc/sudoers.d/newcomer"
  chmod 0440 "$DIR/etc/sudoers.d/newcomer"
  HOME_IN=/home/newcomer
else
  HOME_IN=/root
fi

say "Cloning this repository (HEAD $(git -C "$ROOT" rev-parse --short HEAD)) into $HOME_IN/work/main, ../shared beside it"
rm -rf "$DIR$HOME_IN/work"
mkdir -p "$DIR$HOME_IN/work"
git clone -q --no-local "$ROOT" "$DIR$HOME_IN/work/main"
cp -a "$ROOT/../shared" "$DIR$HOME_IN/work/shared"
if [ "$AS_USER" -eq 1 ]; then in_chroot chown -R newcomer:newcomer "$HOME_IN/work"; fi

run_step() {  # name -> runs ./athena NAME inside, logs to DIR/athena-NAME.log, sets RC_<name>, SECS_<name>
  local name="$1" log="$DIR/athena-$1.log" started rc=0
  say "./athena $name (log: $log)"
  started=$(date +%s)
  if [ "$AS_USER" -eq 1 ]; then
    # su - starts a login shell with a fresh environment: the CA and proxy settings go in again.
    local exports="export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt;" v
    for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
      if [ -n "${!v:-}" ]; then exports+=" export $v=$(printf '%q' "${!v}");"; fi
    done
    in_chroot su - newcomer -c "$exports cd ~/work/main && ./athena $name" >"$log" 2>&1 || rc=$?
  else
    in_chroot bash -c "cd $HOME_IN/work/main && ./athena $name" >"$log" 2>&1 || rc=$?
  fi
  printf -v "RC_$name" '%s' "$rc"
  printf -v "SECS_$name" '%s' "$(( $(date +%s) - started ))"
  tail -3 "$log" | sed 's/^/    | /'
}

RC_demo=1; RC_test=1
run_step demo
run_step test

say "Stock Debian 12 ($SUITE from $MIRROR, $([ "$AS_USER" -eq 1 ] && echo 'as a user with sudo' || echo 'as root'))"
for name in demo test; do
  rc_var="RC_$name"; secs_var="SECS_$name"
  printf '  ./athena %-5s exit %s, %dm%02ds; last line: %s\n' "$name" "${!rc_var}" "$(( ${!secs_var} / 60 ))" "$(( ${!secs_var} % 60 ))" \
    "$(grep -v '^[[:space:]]*$' "$DIR/athena-$name.log" | tail -1)"
done
[ "$RC_demo" -eq 0 ] && [ "$RC_test" -eq 0 ]
