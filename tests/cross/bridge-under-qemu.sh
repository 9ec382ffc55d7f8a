#!/bin/sh
# The arm64 athena-bridge (preset linux-arm64) under qemu-user, as if it were a native command.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
exec qemu-aarch64 -L /usr/aarch64-linux-gnu "$ROOT/build/linux-arm64/bridge/athena-bridge" "$@"
