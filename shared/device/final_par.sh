#!/bin/bash
# Final GPU tests in parallel shards (carry .carry/dsl): each shard is a pytest -k expression over TESTS,
# run in its own process with its own build cache (a cold machine's time goes to first builds, which
# one process does one at a time), then memcheck and racecheck (SAN_TOOLS) on sanitize_cases.py for SANITIZE.
# MARK: the pytest -m expression (default gpu; Triton packages' GPU-run tests are also marked interpreter).
#   SHARDS="small_sample;not small_sample" TESTS=packages/topk-radix-filter bash shared/device/run.sh bash shared/device/final_par.sh
set -u
IFS=';' read -ra shards <<< "${SHARDS:-small_sample;not small_sample}"
san() {
  for b in ${SANITIZE:-}; do
    for tool in ${SAN_TOOLS:-memcheck racecheck}; do
      echo "=== $tool $b"
      timeout ${SAN_S:-70} compute-sanitizer --tool $tool --report-api-errors no python3 shared/device/sanitize_cases.py \
        $b 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -${SAN_TAIL:-14}
    done
  done
}
# SAN_PAR=1: the sanitizers run beside the shards (their own process; only timings would suffer)
[ "${SAN_PAR:-0}" = 1 ] && { san > "$OUT/sanitize.log" 2>&1 & }
i=0
for s in "${shards[@]}"; do
  TOPK_CACHE_DIR=/tmp/topk-cache-shard$i timeout ${TEST_S:-300} python3 -m pytest -q -m "${MARK:-gpu}" -p no:cacheprovider \
    ${TESTS:-packages/topk-radix-filter} -k "$s" > "$OUT/pytest-shard$i.log" 2>&1 &
  i=$((i + 1))
done
wait
for j in $(seq 0 $((i - 1))); do
  echo "=== shard $j: ${shards[$j]}"
  grep -E "passed|failed|error" "$OUT/pytest-shard$j.log" | tail -3
  grep -E "^(FAILED|ERROR)" "$OUT/pytest-shard$j.log" | head -5
done
if [ "${SAN_PAR:-0}" = 1 ]; then
  wait
  cat "$OUT/sanitize.log"
else
  san
fi
