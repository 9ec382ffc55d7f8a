#!/usr/bin/env bash
# tests/node18/run.sh [TEST_FILE...] — runs the node unit suites under Debian 12's own Node.js 18,
# the `nodejs` a stock bookworm gets from `./athena setup`, without installing it.
#
#   1. once: `apt-get download` the Debian 18.x .debs (nodejs, libnode108, and the JS packages the
#      Debian build loads its internal deps from: node-cjs-module-lexer, node-undici, node-acorn,
#      plus any shared library libnode108 needs that this machine lacks) into build/node18/debs,
#      and `dpkg -x` them into build/node18/root. Nothing is installed; dpkg's database is untouched.
#   2. Debian's libnode reads those internal deps from absolute paths under /usr/share/nodejs
#      (NODE_SHARED_BUILTIN_*_PATH, e.g. /usr/share/nodejs/cjs-module-lexer/lexer.js) and aborts at
#      start-up without them, so the tests run in a private mount namespace (unshare) where
#      build/node18/root/usr/share/nodejs is bind-mounted over /usr/share/nodejs. The machine's
#      own /usr/share/nodejs is never changed, and nothing outside the namespace sees the mount.
#   3. build/node18/bin/node (a wrapper) comes first on PATH and LD_LIBRARY_PATH holds the
#      extracted lib dir, so `node`, `npx` and process.execPath all run the Debian 18 binary.
#   4. checks `node --version` starts with v18, then runs
#      node --test --test-reporter=tap FILES (default: the files `./athena test node` runs).
#
# On a stock Debian 12, /usr/bin/node is already Debian's 18 (dpkg owns it): it runs as it is and
# steps 1-3 are skipped.
# ./athena test node18 runs it as a suite. NODE18_DEBS_ONLY=1 only prepares build/node18.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
N18="$ROOT/build/node18"
ROOTFS="$N18/root"
LIBDIR="$ROOTFS/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)"

say() { printf '    [node18] %s\n' "$*" >&2; }
die() { printf '[node18] error: %s\n' "$*" >&2; exit 1; }

# The 18.x version Debian 12 ships (the candidate may be a newer NodeSource build: pin the 18.x one).
debian_node18_version() {
  apt-cache madison nodejs 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); if ($2 ~ /^18\./) {print $2; exit}}'
}

prepare() {
  local stamp="$N18/.prepared"
  if [ -f "$stamp" ] && [ -x "$ROOTFS/usr/bin/node" ]; then return; fi
  command -v apt-get >/dev/null || die "apt-get is needed to fetch Debian's nodejs 18"
  local ver; ver="$(debian_node18_version)"
  if [ -z "$ver" ]; then
    # A fresh machine may never have fetched its package lists: fetch them once, then look again.
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "apt knows no nodejs 18.x yet: apt-get update"
    $sudo apt-get update -qq >/dev/null 2>&1 || true
    ver="$(debian_node18_version)"
  fi
  [ -n "$ver" ] || die "apt knows no nodejs 18.x (not Debian 12?)"
  say "fetching Debian's nodejs $ver into $N18/debs (download only, nothing is installed)"
  local pkgs=("nodejs=$ver" "libnode108=$ver" node-cjs-module-lexer node-undici node-acorn) dep
  # Shared libraries libnode108 links against: fetched too when this machine lacks one.
  for dep in $(apt-cache depends "libnode108=$ver" 2>/dev/null | awk '/^ *Depends: lib/ {print $2}' | sort -u); do
    dpkg-query -W -f='${Status}' "$dep" 2>/dev/null | grep -q "install ok installed" || pkgs+=("$dep")
  done
  rm -rf "$N18/debs" "$ROOTFS"
  mkdir -p "$N18/debs" "$ROOTFS"
  # apt-get download writes into the current directory; -o APT::Sandbox::User=root avoids the
  # "_apt cannot access" warning when run as root on a root-owned directory.
  (cd "$N18/debs" && apt-get download -q -o APT::Sandbox::User="$(id -un)" "${pkgs[@]}" >/dev/null) \
    || die "apt-get download ${pkgs[*]} failed (stale lists? run apt-get update)"
  local deb
  for deb in "$N18/debs"/*.deb; do dpkg -x "$deb" "$ROOTFS"; done
  [ -f "$ROOTFS/usr/share/nodejs/cjs-module-lexer/lexer.js" ] || die "node-cjs-module-lexer did not unpack"
  mkdir -p "$N18/bin"
  cat >"$N18/bin/node" <<EOF
#!/bin/sh
# Debian 12's node 18, unpacked by tests/node18/run.sh (runs only inside its mount namespace).
LD_LIBRARY_PATH="$LIBDIR\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$ROOTFS/usr/bin/node" "\$@"
EOF
  chmod +x "$N18/bin/node"
  echo "$ver" >"$stamp"
}

# Inside the namespace: mount Debian's /usr/share/nodejs, check the version, run the tests.
in_namespace() {
  mount --bind "$ROOTFS/usr/share/nodejs" /usr/share/nodejs
  export PATH="$N18/bin:$PATH"
  export LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local v; v="$(node --version)" || die "Debian's node 18 does not start"
  case "$v" in v18.*) ;; *) die "expected node v18.x, got $v" ;; esac
  say "running $(command -v node) $v ($("$ROOTFS/usr/bin/node" -p process.execPath))"
  cd "$ROOT"
  exec node --test --test-reporter=tap "$@"
}

if [ "${1:-}" = "--in-namespace" ]; then shift; in_namespace "$@"; fi

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(cd "$ROOT" && find tests/wasm tests/node extension/test bridge/test web/test -name '*.test.mjs' 2>/dev/null | sort)
fi
[ ${#files[@]} -gt 0 ] || die "no test files"

# A stock Debian 12 already has Debian's node 18 as /usr/bin/node (`./athena setup` installs it):
# run it as it is, first on PATH ahead of the fetched Node 20. No download, no namespace, and no
# need for one: unprivileged user namespaces are refused inside a chroot, where tests/stock-debian.sh
# runs this as an ordinary user.
if [ "${NODE18_DEBS_ONLY:-}" != 1 ] && sys="$(/usr/bin/node --version 2>/dev/null)" && [[ "$sys" == v18.* ]] \
   && dpkg-query -S /usr/bin/node >/dev/null 2>&1; then
  say "running Debian's own /usr/bin/node $sys"
  export PATH="/usr/bin:$PATH"
  cd "$ROOT"
  exec /usr/bin/node --test --test-reporter=tap "${files[@]}"
fi

prepare
if [ "${NODE18_DEBS_ONLY:-}" = 1 ]; then exit 0; fi

userns=()
[ "$(id -u)" -eq 0 ] || userns=(--map-root-user)   # unprivileged: a user namespace, where mounting is allowed
command -v unshare >/dev/null || die "unshare (util-linux) is needed"
if [ ${#userns[@]} -gt 0 ] && ! unshare --mount "${userns[@]}" -- true 2>/dev/null; then
  die "this user may not create a user namespace (inside a chroot, or kernel.unprivileged_userns_clone=0): install Debian's nodejs 18 as /usr/bin/node, or run as root"
fi
exec unshare --mount --propagation private "${userns[@]}" -- "$ROOT/tests/node18/run.sh" --in-namespace "${files[@]}"
