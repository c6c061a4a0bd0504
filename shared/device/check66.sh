#!/bin/bash
# Prepared in session 65 (carry .carry/dsl), on the committed tree:
# - on an H200 (unless NO_GRID=1): `topk bench --grid dsa --sgl` on the shipped code (radix_filter 0.10.8), every
#   installed backend but FlashInfer (not carried); it fills the kernel caches for call 2 (final56.sh, carry
#   .carry/flashinfer, within 30 s on the same machine);
# - on any other card, or with NO_GRID=1:
#   1. the rest of radix_filter's GPU suite: session 65's call 6 ran its first 1063 tests in collection order (all
#      passed) before its limit cut it; this runs the tests after them;
#   2. with what is left of DEADLINE: sgl_fused's memcheck of session 65's two new cases (600x8000, 450x12000),
#      then racecheck of the second half of its kit cases (sgl_fused NOTES.md, session 63) and those two, in chunks
#      of six, each its own process and summary (a cut chunk loses only itself).
#   TOPK_COMMIT=<hash> DEADLINE=560 bash shared/device/run.sh bash shared/device/check66.sh
#   (SAN_ONLY=1: step 2 alone, for a short call)
set -u
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session66-dsl
h200_dsa_grid || {
  if [ "${SAN_ONLY:-0}" != 1 ]; then
    echo "=== pytest radix_filter GPU tests after the first ${RF_DONE:=1063} ($(date +%T))"
    python3 -m pytest --co -q -p no:cacheprovider -m gpu packages/topk-radix-filter/tests/ | grep "::" \
      | tail -n +$((RF_DONE + 1)) > "$OUT/rf-rest.txt"
    echo "$(wc -l < "$OUT/rf-rest.txt") tests"
    timeout $(left 300) python3 -m pytest -q -rf -p no:cacheprovider $(cat "$OUT/rf-rest.txt") > "$OUT/pytest-rf-rest.log" 2>&1
    echo "rc $?"; grep -E "passed|failed" "$OUT/pytest-rf-rest.log" | tail -1; grep -E "^(FAILED|ERROR)" "$OUT/pytest-rf-rest.log" | head -5
  fi
  sanitize sgl_fused "memcheck 600x8000,450x12000" \
    "racecheck 1700x9000,130x24000,128x30000,400x70000,130x66000,3x16000" \
    "racecheck 4x30000,6x32768,32x32768,16x65536,130x70000,8x100000" \
    "racecheck 120x70000,800x66000,300x33000,130x131072,600x8000,450x12000"
}
echo "=== done ($(date +%T))"
