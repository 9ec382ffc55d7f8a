#!/bin/sh
# The Windows athena-bridge.exe (preset win32-x64) as if it were a native command: what the cross
# suite hands the bridge's tests as ATHENA_BRIDGE, and MCP clients as their command.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
exec "$ROOT/cmake/toolchains/wine-run.sh" "$ROOT/build/win32-x64/bridge/athena-bridge.exe" "$@"
