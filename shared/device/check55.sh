#!/bin/bash
# Session 54: topk_core.sgl's composed path with the Triton transform pass (needs the CuTe DSL carry, so that auto's
# plain selection is radix_filter). 1. its GPU tests (test_transform_pass.py, tests/test_sgl_compose.py);
# 2. compose_bench.py on GRID (fused / Triton pass / torch pass / the model; exact on every input);
# 3. memcheck and racecheck of the GPU tests. PARTS picks a subset ("tests bench sanitize").
#   bash shared/device/run.sh bash shared/device/check55.sh
set -u
T="packages/topk-core/tests/test_transform_pass.py tests/test_sgl_compose.py"
P="python3 -m pytest -q -p no:cacheprovider"
if [[ " ${PARTS:-tests bench sanitize} " == *" tests "* ]]; then
  echo "=== GPU tests ($(date +%T))"
  timeout ${TEST_S:-200} $P $T > "$OUT/pytest55.log" 2>&1
  echo "rc $?"; tail -3 "$OUT/pytest55.log"
fi
if [[ " ${PARTS:-tests bench sanitize} " == *" bench "* ]]; then
  echo "=== compose_bench ${GRID:-dsa} ($(date +%T))"
  timeout ${BENCH_S:-330} python3 shared/device/compose_bench.py ${GRID:-dsa} ${VARIANTS:-fused,tpass,torch,model} \
    > "$OUT/compose55.log" 2>&1
  echo "rc $?"; grep -v "topk bench:" "$OUT/compose55.log" | tail -40
fi
if [[ " ${PARTS:-tests bench sanitize} " == *" sanitize "* ]]; then
  for tool in memcheck racecheck; do
    echo "=== $tool ($(date +%T))"
    timeout ${SAN_S:-100} compute-sanitizer --tool $tool --report-api-errors no $P $T -k "page_table or ragged" \
      > "$OUT/${tool}55.log" 2>&1
    echo "rc $?"; grep -E "passed|failed|ERROR SUMMARY|RACECHECK SUMMARY|hazard" "$OUT/${tool}55.log" | tail -4
  done
fi
echo "=== done ($(date +%T))"
