# Stages shared by the device scripts (each stage is cut to what `left` allows). Sourcing this file also sources
# deadline.sh and card.sh unless the script already did, so a script needs only this one line.
# - `warm_cold_stamps`: find_ab.py stamps on warm rows, then on cold rows (STAMP_COLD=1), of the cells FIND_CELLS
#   (default 2,0,3: 128x32K, 32x32K, 128x128K; FIND_AB, default none, and STAMP_ALTS from the environment), each cut
#   to `left 120`, logs in $OUT/stamps-cold{0,1}.log
#   (radix_filter NOTES.md, session 58's next step);
# - `bench_dsl ARGS`: `topk bench ARGS` with every installed backend but FlashInfer (not carried with CuTe DSL),
#   cut to `left 330`, results in $OUT tagged TAG (default DEFAULT_TAG);
# - `h200_dsa_grid`: on an H200 (card.sh's `is_h200`; NO_GRID=1: never), `bench_dsl --grid dsa --sgl`, the first call
#   of the warm pair with final56.sh; elsewhere it fails, so that a script's other branch runs:
#   `h200_dsa_grid || { ...; }`;
# - `gpu_suites LIMIT SUITE...`: the GPU tests (`-m gpu`, and `-k "$GPU_K"` when GPU_K is set) of each suite folder
#   or file, each cut to `left LIMIT`, logs in $OUT/pytest-<path>.log.
declare -F left > /dev/null || . "$(dirname "${BASH_SOURCE[0]}")/deadline.sh"
declare -F is_h200 > /dev/null || . "$(dirname "${BASH_SOURCE[0]}")/card.sh"
warm_cold_stamps() {
  for cold in 0 1; do
    echo "=== find_ab stamps STAMP_COLD=$cold ($(date +%T))"
    STAMP_COLD=$cold FIND_AB=${FIND_AB:-none} FIND_CELLS=${FIND_CELLS:-2,0,3} timeout $(left 120) \
      python3 shared/device/find_ab.py stamps > "$OUT/stamps-cold$cold.log" 2>&1
    echo "rc $?"; grep -v "^ *$" "$OUT/stamps-cold$cold.log" | tail -8
  done
}
bench_dsl() {
  echo "=== topk bench $*, no FlashInfer ($(date +%T))"
  timeout $(left 330) python3 -m topk_core bench "$@" --out "$OUT" --replays 10 --tag "${TAG:-$DEFAULT_TAG}" 2>&1 \
    | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -30
}
h200_dsa_grid() { is_h200 && [ "${NO_GRID:-0}" != 1 ] && bench_dsl --grid dsa --sgl; }
gpu_suites() {
  local limit=$1; shift
  for suite in "$@"; do
    local tag=$(echo "$suite" | tr '/' '_')
    echo "=== pytest $suite ($(date +%T))"
    timeout $(left "$limit") python3 -m pytest -q -rA -p no:cacheprovider -m gpu ${GPU_K:+-k "$GPU_K"} "$suite" > "$OUT/pytest-$tag.log" 2>&1
    echo "rc $?"; grep -E "passed|failed" "$OUT/pytest-$tag.log" | tail -1; grep -E "^(FAILED|ERROR)" "$OUT/pytest-$tag.log" | head -5
  done
}
# sanitize BACKEND "TOOL ROWSxN,..." ...: one compute-sanitizer process per argument on sanitize_cases.py's SAN_CASES,
# each with its own log and summary, so a call's limit cuts at most one (session 64); skipped under 60 s left.
sanitize() {
  local backend=$1 run log
  shift
  for run in "$@"; do
    set -- $run
    [ "$(left 60)" -ge 60 ] || { echo "=== $1 $2: skipped, under 60 s left"; continue; }
    log="$OUT/$1-$backend-$(echo "$2" | cut -d, -f1).log"
    echo "=== $1 $backend SAN_CASES=cases,$2 ($(date +%T))"
    SAN_CASES=cases,$2 timeout $(left 300) compute-sanitizer --tool $1 --report-api-errors no python3 \
      shared/device/sanitize_cases.py $backend > "$log" 2>&1
    echo "rc $?"; grep -c "^ok" "$log"; grep -E "^FAIL|SUMMARY" "$log"
  done
}
# sgl_race_rest: racecheck of the 14 sgl_fused kit cases no racecheck had reached by session 66 (13 names: 120x70000
# selects two), in three chunks (sgl_fused NOTES.md, sessions 63-67).
sgl_race_rest() {
  sanitize sgl_fused "racecheck 1700x9000,130x24000,128x30000,400x70000,130x66000" \
    "racecheck 32x32768,16x65536,130x70000,8x100000" \
    "racecheck 120x70000,800x66000,300x33000,130x131072"
}
