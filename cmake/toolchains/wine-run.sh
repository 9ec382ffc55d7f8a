#!/bin/sh
# Runs a Windows executable under wine64 with no display and no prompts: the prefix lives in the
# build tree (WINEPREFIX, else build/wine), debug output is off, and mono/gecko are never offered.
: "${WINEPREFIX:=$(cd "$(dirname "$0")/../.." && pwd)/build/wine}"
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
unset DISPLAY WAYLAND_DISPLAY
exec wine "$@"
