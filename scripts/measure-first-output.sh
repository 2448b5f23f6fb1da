#!/usr/bin/env bash
# The run command as a new user meets it (issue 22): clones a commit of this repository into a
# fresh folder (no .build, no Plugins/*.so, no out/), runs `scripts/run.sh` there and measures the
# seconds until the first file appears in out/ (cold), stops the host, empties out/ and does it
# again (warm). Prints one line per run with the seconds, the CPU seconds the build took before
# the output (comparable across loads), the commit, the machine's cores and its load before and
# after (wall figures mean little without it on a shared machine), and the line run.sh printed
# about what it builds. The clone's host is private: its own XDG_RUNTIME_DIR and state.
#
# Usage: scripts/measure-first-output.sh [--commit REV] [--keep] [--timeout SECONDS]
#   --commit REV   what to clone (default HEAD; commit first, the clone sees only commits)
#   --keep         leave the clone (its .build, and cold.log and warm.log: what run.sh printed,
#                  each line after its second) in place and print its path
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
commit=HEAD keep=0 timeout=3600
while [ $# -gt 0 ]; do
    case "$1" in
        --commit) commit="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        --timeout) timeout="$2"; shift 2 ;;
        *) echo "measure-first-output.sh: unknown argument '$1' (see the usage at the top of the script)" >&2; exit 2 ;;
    esac
done
commit="$(git -C "$repo" rev-parse --verify "$commit^{commit}")"
work="$(mktemp -d /tmp/widgethost-first-output-XXXXXX)"
clone="$work/clone"
git clone -q --no-checkout "$repo" "$clone"
git -C "$clone" checkout -q "$commit"
mkdir -m 700 "$work/run"
host_pid=""
stop_host() {
    if [ -n "$host_pid" ]; then
        kill -TERM -- "-$host_pid" 2>/dev/null || true
        wait "$host_pid" 2>/dev/null || true
        host_pid=""
    fi
}
cleanup() { stop_host; [ "$keep" = 1 ] && echo "clone kept: $clone" >&2 || rm -rf "$work"; }
trap cleanup EXIT

# Seconds (with tenths) since $1, a time in microseconds (`${EPOCHREALTIME/./}`).
elapsed() { local t=$(( ${EPOCHREALTIME/./} - $1 )); printf '%d.%d' $(( t / 1000000 )) $(( t / 100000 % 10 )); }

# User + system seconds of the finished children of process $1: run.sh's build, which the host
# process inherits (run.sh execs it), whatever else the machine runs. Fields 16 and 17 of
# /proc/PID/stat, after the command name (which may hold spaces) closed by ") ".
children_cpu() {
    local stat; stat="$(cat "/proc/$1/stat")"; stat="${stat##*) }"
    awk -v ticks="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) / ticks }' <<<"$stat"
}

# Copies standard input to standard output, each line after the seconds since $1: the build's
# own lines then say when each module was compiled (docs/performance.md reads them).
stamp() { local line; while IFS= read -r line; do printf '%7s %s\n' "$(elapsed "$1")" "$line"; done; }

# One run: start run.sh in a session of its own (so the host and its workers stop together), wait
# for the first file in out/, print the seconds.
measure() {
    local label="$1" log="$work/$1.log" load_before start
    rm -rf "$clone/out"
    load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
    start="${EPOCHREALTIME/./}"
    (cd "$clone" && XDG_RUNTIME_DIR="$work/run" exec setsid bash scripts/run.sh) > >(stamp "$start" >"$log") 2>&1 &
    host_pid=$!
    until [ -n "$(ls -A "$clone/out" 2>/dev/null)" ]; do
        if ! kill -0 "$host_pid" 2>/dev/null; then
            echo "$label: scripts/run.sh exited before any output; its log ($log):" >&2
            tail -n 30 "$log" >&2
            exit 1
        fi
        if [ $(( ${EPOCHREALTIME/./} - start )) -gt $(( timeout * 1000000 )) ]; then
            echo "$label: no output after $timeout s" >&2
            exit 1
        fi
        sleep 0.2
    done
    local seconds cpu
    seconds="$(elapsed "$start")"
    cpu="$(children_cpu "$host_pid")"
    printf '%s: first output after %s s, %s s CPU before it (commit %s, %s cores, load %s before, %s after)\n' \
        "$label" "$seconds" "$cpu" "${commit:0:10}" "$(nproc)" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)"
    stop_host
    grep -m 1 -E '^ *[0-9.]+ (Building|Rebuilding) ' "$log" | sed 's/^ */  printed at /' || true
}

measure cold
measure warm
