# The suite runner behind `./athena test`, sourced by ./athena and by tests/node/runner.test.mjs.
#
# run_suite NAME KIND COMMAND...   runs one step (a suite or a build), shows its progress lines,
#                                  keeps the whole log in build/test-logs/NAME.log and adds its
#                                  counts to PASSED/FAILED/SKIPPED.
# run_build NAME COMMAND...        a build (or the setup) as one counted step: it passes or fails as
#                                  one check, and a failure is remembered for run_suite_after.
# run_suite_after "BUILD..." NAME KIND COMMAND...
#                                  run_suite, unless one of the named builds failed: then the suite
#                                  is not run and is reported and counted as skipped.
# finish_suites                    prints how long each step took ("step times: build-dev 196 s,
#                                  …", what keeps the whole run's time in view), then "athena test:
#                                  N passed, N failed" (", N skipped" when any was) as its last line,
#                                  and returns non-zero when anything failed.
#
# A suite fails when its command exits non-zero, whatever it printed: a tsc type error, a crash
# before the summary, or a summary that counts no failure but an exit status that does. A suite
# that fails without a count of its own failures (it died before its summary) adds one failure,
# so the closing line can never read "0 failed" while a suite failed.
#
# KIND says how to read the counts: ctest ("N tests failed out of M", and the "(Skipped)" tests it
# lists as not run), node (node --test's TAP "# pass N" / "# fail N" / "# cancelled N" /
# "# skipped N" / "# todo N"), plain (one check: passed iff the command exits 0), build (plain,
# with every line of its output shown, not only the progress lines).

PASSED=0
FAILED=0
SKIPPED=0
SUITES_FAILED=()
SUITES_SKIPPED=()
BUILDS_FAILED=()
STEP_TIMES=()
LAST_STEP_OK=1

# The lines worth showing live; everything goes to the log.
SUITE_PROGRESS_RE='^(not ok|ok |# (pass|fail|tests|skipped|todo|cancelled)|[0-9]+% tests|.*Failed|.*\*\*\*|.*Passed|.*FAILED|.*passed|.*error TS[0-9]+)'

_tap_total() {  # key log -> the last "# key N" figure, or nothing
  grep -E "^# $1 [0-9]+" "$2" | tail -1 | awk '{print $3}' || true
}

_suite_counts() {  # kind log -> "passed failed skipped" ("" when the log has no summary)
  local kind="$1" log="$2" line p f s
  case "$kind" in
    ctest)
      line="$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1 || true)"
      [ -n "$line" ] || return 0
      local total
      total="$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")"
      f="$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$line")"
      # ctest counts a skipped test among the passed ones and lists it as "(Skipped)".
      s="$(grep -cE '^[[:space:]]*[0-9]+ - .*\(Skipped\)[[:space:]]*$' "$log" || true)"
      echo "$((total - f - s)) $f $s"
      ;;
    node)
      p="$(_tap_total pass "$log")"
      f="$(_tap_total fail "$log")"
      [ -n "$p" ] || [ -n "$f" ] || return 0
      local c sk td
      c="$(_tap_total cancelled "$log")"; sk="$(_tap_total skipped "$log")"; td="$(_tap_total todo "$log")"
      echo "${p:-0} $(( ${f:-0} + ${c:-0} )) $(( ${sk:-0} + ${td:-0} ))"
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
  local show="$SUITE_PROGRESS_RE"
  [ "$kind" = build ] && show='.'
  # The command runs in its own subshell, so an `exit` in it (./athena's die) ends only the step,
  # and behind `||`, so `set -e` cannot end the block before its status is written. The status is
  # written to a file: a pipeline's PIPESTATUS is lost as soon as anything runs after it.
  local started=$SECONDS
  { local step_rc=0; ( "$@" ) || step_rc=$?; echo "$step_rc" >"$rcfile"; } 2>&1 | tee "$log" | grep -E --line-buffered "$show" || true
  STEP_TIMES+=("$name $((SECONDS - started)) s")
  local rc
  rc="$(cat "$rcfile" 2>/dev/null || echo 127)"
  [ -n "$rc" ] || rc=127

  local counts p=0 f=0 s=0
  counts="$(_suite_counts "$kind" "$log")"
  if [ -n "$counts" ]; then
    read -r p f s <<<"$counts"
  elif [ "$kind" = plain ] || [ "$kind" = build ]; then
    if [ "$rc" -eq 0 ]; then p=1; else f=1; fi
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1  # it failed without counting its own failure (died before its summary, or lied in it)
  fi
  if [ "$rc" -eq 0 ] && [ "$kind" != plain ] && [ "$kind" != build ] && [ -z "$counts" ]; then
    f=1  # exit 0 but no summary: nothing shows that a single test ran
    rc=1
    printf '\033[31m    suite %s printed no test summary\033[0m\n' "$name"
  fi
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  SKIPPED=$((SKIPPED + s))
  LAST_STEP_OK=1
  if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
    LAST_STEP_OK=0
    SUITES_FAILED+=("$name")
    printf '\033[31m    suite %s failed (exit %s, %s failed); last lines of %s:\033[0m\n' "$name" "$rc" "$f" "$log"
    tail -40 "$log" | sed 's/^/    | /'
  elif [ "$s" -ne 0 ]; then
    printf '\033[33m    suite %s: %s test(s) skipped (see %s)\033[0m\n' "$name" "$s" "$log"
  fi
  return 0
}

run_build() {  # name command...
  local name="$1"; shift
  run_suite "build-$name" build "$@"
  if [ "$LAST_STEP_OK" -eq 0 ]; then BUILDS_FAILED+=("$name"); fi
  return 0
}

run_suite_after() {  # "build..." name kind command...
  local needs="$1" name="$2" b
  for b in $needs; do
    if printf '%s\n' "${BUILDS_FAILED[@]}" | grep -qx -- "$b"; then
      printf '\n\033[1m==> Test suite: %s\033[0m\n' "$name"
      printf '\033[33m    suite %s skipped: it needs build %s, which failed\033[0m\n' "$name" "$b"
      SKIPPED=$((SKIPPED + 1))
      SUITES_SKIPPED+=("$name (build $b failed)")
      return 0
    fi
  done
  shift
  run_suite "$@"
}

finish_suites() {
  echo
  if [ ${#STEP_TIMES[@]} -gt 0 ]; then
    local joined
    joined="$(printf '%s, ' "${STEP_TIMES[@]}")"
    echo "step times: ${joined%, }"
  fi
  if [ ${#SUITES_FAILED[@]} -gt 0 ]; then
    echo "failed suites: ${SUITES_FAILED[*]} (logs in ${ATHENA_TEST_LOGS:-build/test-logs}/)"
  fi
  if [ ${#SUITES_SKIPPED[@]} -gt 0 ]; then
    local IFS=,
    echo "not run: ${SUITES_SKIPPED[*]}"
  fi
  echo "athena test: $PASSED passed, $FAILED failed$([ "$SKIPPED" -gt 0 ] && echo ", $SKIPPED skipped")"
  [ ${#SUITES_FAILED[@]} -eq 0 ] && [ "$FAILED" -eq 0 ]
}
