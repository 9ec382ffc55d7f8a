# The suite runner behind `./athena test`, sourced by ./athena and by tests/node/runner.test.mjs.
#
# run_suite NAME KIND COMMAND...   runs one suite, shows its progress lines, keeps the whole log in
#                                  build/test-logs/NAME.log and adds its counts to PASSED/FAILED.
# finish_suites                    prints "athena test: N passed, N failed" and returns non-zero
#                                  when any suite failed.
#
# A suite fails when its command exits non-zero, whatever it printed: a tsc type error, a crash
# before the summary, or a summary that counts no failure but an exit status that does. A suite
# that fails without a count of its own failures (it died before its summary) adds one failure,
# so the closing line can never read "0 failed" while a suite failed.
#
# KIND says how to read the counts: ctest ("N tests failed out of M"), node (node --test's TAP
# "# pass N" / "# fail N"), plain (one check: passed iff the command exits 0).

PASSED=0
FAILED=0
SUITES_FAILED=()

# The lines worth showing live; everything goes to the log.
SUITE_PROGRESS_RE='^(not ok|ok |# (pass|fail|tests)|[0-9]+% tests|.*Failed|.*\*\*\*|.*Passed|.*FAILED|.*passed|.*error TS[0-9]+)'

_suite_counts() {  # kind log -> "passed failed" ("" when the log has no summary)
  local kind="$1" log="$2" line p f
  case "$kind" in
    ctest)
      line="$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1 || true)"
      [ -n "$line" ] || return 0
      local total
      total="$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")"
      f="$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")"
      echo "$((total - f)) $f"
      ;;
    node)
      p="$(grep -E '^# pass [0-9]+' "$log" | tail -1 | awk '{print $3}' || true)"
      f="$(grep -E '^# fail [0-9]+' "$log" | tail -1 | awk '{print $3}' || true)"
      [ -n "$p" ] || [ -n "$f" ] || return 0
      echo "${p:-0} ${f:-0}"
      ;;
  esac
}

run_suite() {  # name kind command...
  local name="$1" kind="$2"; shift 2
  local logdir="${ATHENA_TEST_LOGS:-build/test-logs}"
  local log="$logdir/$name.log" rcfile="$logdir/$name.rc"
  mkdir -p "$logdir"
  rm -f "$rcfile"
  printf '\n\033[1m==> Test suite: %s\033[0m\n' "$name"
  # The command's status is written by the command's own subshell: a pipeline's PIPESTATUS is
  # lost as soon as anything (`|| true`, a failed grep) runs after it.
  { "$@"; echo $? >"$rcfile"; } 2>&1 | tee "$log" | grep -E --line-buffered "$SUITE_PROGRESS_RE" || true
  local rc
  rc="$(cat "$rcfile" 2>/dev/null || echo 127)"
  [ -n "$rc" ] || rc=127

  local counts p=0 f=0
  counts="$(_suite_counts "$kind" "$log")"
  if [ -n "$counts" ]; then
    read -r p f <<<"$counts"
  elif [ "$kind" = plain ]; then
    if [ "$rc" -eq 0 ]; then p=1; else f=1; fi
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1  # it failed without counting its own failure (died before its summary, or lied in it)
  fi
  if [ "$rc" -eq 0 ] && [ "$kind" != plain ] && [ -z "$counts" ]; then
    f=1  # exit 0 but no summary: nothing shows that a single test ran
    rc=1
    printf '\033[31m    suite %s printed no test summary\033[0m\n' "$name"
  fi
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
    SUITES_FAILED+=("$name")
    printf '\033[31m    suite %s failed (exit %s, %s failed); last lines of %s:\033[0m\n' "$name" "$rc" "$f" "$log"
    tail -40 "$log" | sed 's/^/    | /'
  fi
  return 0
}

finish_suites() {
  echo
  if [ ${#SUITES_FAILED[@]} -gt 0 ]; then
    echo "failed suites: ${SUITES_FAILED[*]} (logs in ${ATHENA_TEST_LOGS:-build/test-logs}/)"
  fi
  echo "athena test: $PASSED passed, $FAILED failed"
  [ ${#SUITES_FAILED[@]} -eq 0 ] && [ "$FAILED" -eq 0 ]
}
