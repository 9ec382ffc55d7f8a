#!/usr/bin/env bash
# Runs every libFuzzer target of fuzz/ (built by the fuzz preset into build/fuzz) for SECONDS each,
# or until each has executed N inputs (--runs N), seeded from the recorded corpus (tests/cases)
# and the bridge's hostile inputs. Exits non-zero when any target finds a crash in this run;
# crashing inputs are kept in build/fuzz/crashes/<target>/<run>/, one folder per run (named by its
# start time), so an earlier run's crash files are neither counted again nor overwritten.
#   fuzz/run.sh SECONDS|--runs N [--write bench/fuzz-results.md]
# FUZZ_TARGETS picks targets; FUZZ_MAX_SECONDS caps each --runs target; FUZZ_BIN / FUZZ_WORK point at other binaries / work folders (a long run on a copy, say).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: fuzz/run.sh SECONDS|--runs N [--write FILE]"
RUNS=""
if [ "${1:-}" = "--runs" ]; then RUNS="${2:?$usage}"; shift 2; SECONDS_EACH="${FUZZ_MAX_SECONDS:-$((6 * 3600))}"; else SECONDS_EACH="${1:?$usage}"; shift; fi
WRITE=""; [ "${1:-}" = "--write" ] && WRITE="${2:?--write needs a file}"
BIN="${FUZZ_BIN:-$ROOT/build/fuzz/fuzz}"
WORK="${FUZZ_WORK:-$ROOT/build/fuzz}"
MAX_LEN=65536        # bytes of one input (the small recorded captures fit)
RSS_LIMIT_MB=2048    # one target's memory

seed() {  # target -> its seed folder, made once from the repo's own inputs
  local t="$1" dir="$WORK/seeds/$1"
  [ -d "$dir" ] && { echo "$dir"; return; }
  mkdir -p "$dir"
  case "$t" in
    capture)
      for f in "$ROOT"/tests/cases/*/*/capture.json.gz; do
        local out; out="$dir/$(echo "$f" | sed "s|$ROOT/tests/cases/||; s|/|_|g; s|.json.gz||")"
        gzip -dc "$f" > "$out"
        [ "$(stat -c %s "$out")" -le "$MAX_LEN" ] || rm -f "$out"
      done ;;
    events)
      for f in "$ROOT"/tests/cases/*/*/events.json; do
        node -e 'const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.stdout.write(a.map((e) => JSON.stringify(e)).join("\n"))' "$f" \
          > "$dir/$(echo "$f" | sed "s|$ROOT/tests/cases/||; s|/|_|g")"
      done ;;
    jsonrpc|host)
      node --input-type=module -e '
        import { MCP_ATTACKS } from "'"$ROOT"'/bridge/test/hostile-inputs.mjs";
        import { writeFileSync } from "node:fs";
        const dir = process.argv[1];
        const small = MCP_ATTACKS.map((a) => a.line()).filter((l) => l.length < 4096);
        small.push(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", clientInfo: { name: "x", version: "1" } } }));
        small.push(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "click", arguments: { ref: "e3", version: 4 }, _meta: { progressToken: "p" } } }));
        small.push([{ type: "hello", protocol: 1, client: "a", session: "s0123456789abcdef0123456789abcdef" }, { type: "call", id: "x", tool: "snapshot", args: {} }, { type: "result", id: "h1", ok: true, text: "t" }, { type: "cancel", id: "x" }].map((m) => JSON.stringify(m)).join("\n"));
        small.forEach((l, i) => writeFileSync(`${dir}/seed${i}`, l));
      ' "$dir" ;;
    framing)
      node -e '
        const fs = require("fs"); const dir = process.argv[1];
        const frame = (o) => { const b = Buffer.from(JSON.stringify(o)); const h = Buffer.alloc(4); h.writeUInt32LE(b.length); return Buffer.concat([h, b]); };
        fs.writeFileSync(`${dir}/hello`, frame({ type: "hello", protocol: 1 }));
        fs.writeFileSync(`${dir}/chunks`, Buffer.concat([frame({ type: "chunk", id: "c1", seq: 0, total: 2, data: "{\"type\":" }), frame({ type: "chunk", id: "c1", seq: 1, total: 2, data: "\"x\"}" })]));
      ' "$dir" ;;
  esac
  echo "$dir"
}

rows=(); failed=0
RUN_ID="$(date -u +%Y%m%dT%H%M%SZ)-$$"
for t in ${FUZZ_TARGETS:-capture events jsonrpc framing host}; do
  exe="$BIN/fuzz_$t"
  [ -x "$exe" ] || { echo "fuzz: $exe is not built (cmake --preset fuzz && cmake --build build/fuzz)"; exit 1; }
  seeds="$(seed "$t")"
  corpus="$WORK/corpus/$t"; crashes="$WORK/crashes/$t/$RUN_ID"; mkdir -p "$corpus" "$crashes"
  log="$WORK/$t.log"
  echo "==> fuzz_$t ${RUNS:+for $RUNS executions, at most }for ${SECONDS_EACH}s"
  rc=0; started=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:malloc_context_size=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$exe" "$corpus" "$seeds" -max_total_time="$SECONDS_EACH" -max_len="$MAX_LEN" -rss_limit_mb="$RSS_LIMIT_MB" \
    ${RUNS:+-runs="$RUNS"} -print_final_stats=1 -artifact_prefix="$crashes/" > "$log" 2>&1 || rc=$?
  took=$(( $(date +%s) - started ))
  execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)"
  found="$(find "$crashes" -type f | wc -l)"
  kept=""; if [ "$found" -eq 0 ]; then rmdir "$crashes"; else kept=" (kept in $crashes)"; fi
  echo "    $t: ${execs:-?} executions, exit $rc, $found crashing input(s) in this run$kept"
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then failed=1; tail -30 "$log" | sed 's/^/    | /'; fi
  rows+=("| $t | ${took} | ${execs:-?} | $([ "$rc" -eq 0 ] && [ "$found" -eq 0 ] && echo 0 || echo "$found (exit $rc)") |")
done

if [ -n "$WRITE" ]; then
  {
    echo "## Fuzzing (libFuzzer, ASan + UBSan)"
    echo
    if [ -n "$RUNS" ]; then how="--runs $RUNS\`: each target of fuzz/ until $RUNS executions"; else how="$SECONDS_EACH\`: each target of fuzz/ for $SECONDS_EACH s"; fi
    echo "\`fuzz/run.sh $how on one core, seeded from tests/cases and"
    echo "bridge/test/hostile-inputs.mjs, inputs up to $MAX_LEN bytes. Crashing inputs would be in build/fuzz/crashes/<target>/<run>/."
    echo
    echo "| target | seconds | executions | crashes |"
    echo "|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
  } > "$(case "$WRITE" in /*) echo "$WRITE" ;; *) echo "$ROOT/$WRITE" ;; esac)"
  echo "wrote $WRITE"
fi
exit "$failed"
