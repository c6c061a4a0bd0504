#!/bin/bash
# One sgl10_bench.py plan, timed alone: bash shared/device/sgl_plan.sh TITLE LOG SECONDS PLAN
# (PLAN as SGL_PLAN; the log goes to $OUT/LOG, its RESULT lines to stdout; BENCH_S overrides SECONDS).
set -u
here=$(cd "$(dirname "$0")" && pwd)
echo "=== $1 ($(date +%T))"
SGL_PLAN="$4" timeout ${BENCH_S:-$3} python3 "$here/sgl10_bench.py" "$3" > "$OUT/$2" 2>&1
echo "=== rc $?"; grep RESULT "$OUT/$2"
