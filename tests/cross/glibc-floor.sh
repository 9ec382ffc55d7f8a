#!/bin/sh
# The oldest glibc the Linux athena-bridge loads on. A binary linked on Debian 12 asks for
# GLIBC_2.34 (__libc_start_main) and so fails on Ubuntu 20.04 / Debian 11 (glibc 2.31): the release
# presets link it fully static instead. This check prints the floor and fails when it is above
# 2.31 (GLIBC_FLOOR), then runs the binary in a root holding nothing but itself.
#   usage: tests/cross/glibc-floor.sh BINARY
set -eu
bin="$1"
max="${GLIBC_FLOOR:-2.31}"
[ -x "$bin" ] || { echo "glibc-floor: $bin is not built"; exit 1; }
if readelf -l "$bin" | grep -q 'Requesting program interpreter'; then
  floor="$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)"
  echo "glibc-floor: $bin is dynamically linked; highest GLIBC_ symbol version: ${floor:-none}"
  if [ -n "$floor" ] && [ "$(printf '%s\n%s\n' "$floor" "$max" | sort -V | tail -1)" != "$max" ]; then
    echo "glibc-floor: FAIL: needs glibc $floor, above $max (Ubuntu 20.04, Debian 11): link it statically (ATHENA_STATIC_BRIDGE)"
    exit 1
  fi
else
  if objdump -T "$bin" 2>/dev/null | grep -q 'GLIBC_'; then echo "glibc-floor: FAIL: no interpreter but versioned symbols"; exit 1; fi
  echo "glibc-floor: $bin is statically linked: no GLIBC_ symbol versions, no loader; $(readelf -n "$bin" | grep -o 'OS: Linux, ABI: [0-9.]*' | sed 's/OS: Linux, ABI:/needs a Linux kernel >=/' || true)"
fi
# Proof by running it where there is no libc at all: an empty root holding only the binary.
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
cp "$bin" "$root/athena-bridge"
if [ "$(id -u)" -eq 0 ]; then run="chroot"; else run="unshare -r chroot"; fi
out="$($run "$root" /athena-bridge --version 2>&1)" || { echo "glibc-floor: FAIL: in an empty root: $out"; exit 1; }
echo "glibc-floor: in an empty root (no libc, no loader): $out"
