#!/bin/bash
# Session 55, one device call (carry .carry/dsl), each stage cut to what is left of DEADLINE seconds (default 540):
# 0. radix_filter's ``stage`` A/B on the 8K cells (find_ab.py; ``stage`` and its alternatives were removed after
#    commit 5001b6f, which is the tree this ran on); where a staged build beats the shipped one on any
#    cell, its GPU tests and memcheck / racecheck; then what session 54 left unrun: 1. topk_core.sgl's compose GPU
#    tests (the fixed spy); 2. sgl_fused's test_defer_sure / test_config_refused; 3. compose_bench.py dsa with the
#    "model" variant (on an H200: the data to refit COMPOSE_US there); 4. racecheck of a 16-bit regions pick;
#    5. memcheck and racecheck of the compose tests.
#   DEADLINE=540 bash shared/device/run.sh bash shared/device/check55b.sh
set -u
START=$(date +%s)
left() { local l=$(( ${DEADLINE:-540} - ($(date +%s) - START) )); (( l < 1 )) && l=1; (( l < $1 )) && echo $l || echo $1; }
W=packages/topk-sgl-fused/tests
T="packages/topk-core/tests/test_transform_pass.py tests/test_sgl_compose.py"
P="python3 -m pytest -q -p no:cacheprovider"
echo "=== find_ab stage ($(date +%T))"
FIND_AB=${FIND_AB:-stg,stgu2,stgu8} FIND_CELLS=${FIND_CELLS:-6,16,15,14,18} timeout $(left 170) \
  python3 shared/device/find_ab.py > "$OUT/find_ab.log" 2>&1
echo "rc $?"; grep "|" "$OUT/find_ab.log"
# A staged build 1% or more under the shipped one (both rounds) on some cell: its correctness checks.
if python3 - "$OUT/find_ab.log" <<'PY'
import re, sys
win = False
for line in open(sys.argv[1]):
    cols = dict((c.split()[0], [float(t) for t in c.split()[1].split("/")]) for c in line.split("|")[1:] if c.strip())
    new = cols.get("new")
    win |= bool(new) and any(k.startswith("stg") and max(v) < 0.99 * min(new) for k, v in cols.items())
sys.exit(0 if win else 1)
PY
then
  echo "=== stage GPU tests ($(date +%T))"
  timeout $(left 120) $P packages/topk-radix-filter/tests/test_conformance.py -k stage > "$OUT/pytest-stage.log" 2>&1
  echo "rc $?"; tail -3 "$OUT/pytest-stage.log"
  for tool in memcheck racecheck; do
    echo "=== $tool stage ($(date +%T))"
    timeout $(left 60) compute-sanitizer --tool $tool --report-api-errors no $P \
      packages/topk-radix-filter/tests/test_conformance.py -k "sparse1_on_batches and stage_short_many and (randn or plateau)" \
      > "$OUT/${tool}-stage.log" 2>&1
    echo "rc $?"; grep -E "passed|failed|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/${tool}-stage.log" | tail -3
  done
fi
echo "=== compose GPU tests ($(date +%T))"
timeout $(left 100) $P $T > "$OUT/pytest-compose.log" 2>&1
echo "rc $?"; tail -3 "$OUT/pytest-compose.log"
echo "=== sgl_fused defer_sure / config_refused ($(date +%T))"
timeout $(left 90) $P $W/test_warp.py -k "defer_sure or config_refused" > "$OUT/pytest-warp.log" 2>&1
echo "rc $?"; tail -3 "$OUT/pytest-warp.log"
echo "=== compose_bench dsa ($(date +%T))"
timeout $(left 200) python3 shared/device/compose_bench.py dsa fused,tpass,torch,model > "$OUT/compose.log" 2>&1
echo "rc $?"; grep -v "topk bench:" "$OUT/compose.log" | tail -24
echo "=== racecheck SET=54 1024x65536 ($(date +%T))"
SET=54 SHAPES=1024x65536 timeout $(left 60) compute-sanitizer --tool racecheck python3 shared/dev/sanitize_lf52.py \
  > "$OUT/racecheck-16bit.log" 2>&1
echo "rc $?"; grep -E "exact|RACECHECK SUMMARY|Error|Traceback" "$OUT/racecheck-16bit.log" | tail -6
for tool in memcheck racecheck; do
  echo "=== $tool compose ($(date +%T))"
  timeout $(left 60) compute-sanitizer --tool $tool --report-api-errors no $P $T -k "page_table or ragged" \
    > "$OUT/${tool}-compose.log" 2>&1
  echo "rc $?"; grep -E "passed|failed|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/${tool}-compose.log" | tail -4
done
echo "=== done ($(date +%T))"
