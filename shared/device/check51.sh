#!/bin/bash
# Session 51, one warm call: (1) picklf on WARP_MID's 2-12 rows per SM of 16K-32K (timed first, alone on the GPU);
# (2) the sgl_fused 0.27.3 GPU tests that session 50's call did not reach, with racecheck of
# test_longest_first[none] beside them (check50.sh). Carry .carry/dsl so that final44.sh can follow warm:
#   bash shared/device/run.sh bash shared/device/check51.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
echo "=== picklf on WARP_MID ($(date +%T))"
SGL_PLAN="512x32K:noold,pick,picklf1,picklf2,picklf0s;1024x32K:noold,pick,picklf1,picklf3;300x16K:noold,pick,picklf1" \
  timeout ${BENCH_S:-200} python3 "$here/sgl10_bench.py" 200 > "$OUT/picklf.log" 2>&1
echo "=== rc $?"; tail -40 "$OUT/picklf.log"
TOOLS=racecheck TESTK="longest_first or 16bit_picks or (narrow and page_table-4096)" TEST_S=${TEST_S:-300} \
  SAN_S=${SAN_S:-300} bash "$here/check50.sh"
