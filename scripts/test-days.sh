#!/usr/bin/env bash
# Runs the (already built) test suite as if it were each day of one week, and in two extreme
# time zones: the check that no test depends on today's date or the machine's zone.
#
#   scripts/test-days.sh [swift test options…]     e.g. --filter ExampleGoldenTests
#
# The clock of the whole process tree (swift test, the host, its workers, the bars) is moved by
# Tests/IntegrationTests/Fixtures/shifted_clock.c preloaded; the machine's clock is not touched.
# Build first: scripts/test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
lib=$(mktemp -d)/shifted_clock.so
cc -shared -fPIC -O2 -o "$lib" Tests/IntegrationTests/Fixtures/shifted_clock.c -ldl || exit 1
now=$(date +%s)
# Monday 23 November 2026 to Sunday 29 November, at 23:59:30 UTC (a minute from midnight).
base=$(date -u -d '2026-11-23 23:59:30' +%s)
status=0
run() {  # label, offset seconds, TZ
    local log; log=$(mktemp)
    if LD_PRELOAD="$lib" SHIFTED_CLOCK_OFFSET="$2" TZ="$3" swift test --skip-build "${@:4}" >"$log" 2>&1; then r=ok; else r=FAILED; status=1; fi
    echo "$1 (TZ=$3): $r — $(grep -E 'Test run with|Executed [0-9]+ tests' "$log" | tail -1)"
    [ "$r" = ok ] || grep -E '✘|error:' "$log" | head -20
    rm -f "$log"
}
for d in 0 1 2 3 4 5 6; do
    at=$((base + d * 86400))
    run "$(date -u -d @"$at" '+%a %d %b %Y %H:%M UTC')" $((at - now)) UTC "$@"
done
run "today" 0 Pacific/Kiritimati "$@"
run "today" 0 America/Adak "$@"
exit $status
