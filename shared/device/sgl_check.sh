#!/bin/bash
# sgl_fused's device checks in one call, as the session scripts (check24.sh, check25.sh, check25b.sh) set them:
# an A/B of sgl10_bench.py variants first (PLAN_FIRST), the GPU suite beside memcheck + racecheck of some
# sanitize_cases.py cases (SAN_CASES; "none": the page-table cases only), some test files beside the sanitizers or,
# with BESIDE=0, after them (FILES, names under packages/topk-sgl-fused/tests), then picks timed last (PLAN).
#   FILES="test_split.py" [BESIDE=1] [FILES_S=200] [SAN_CASES=4x30000] [SAN_S=200] [TEST_S=200] [WORKERS=6]
#   [PLAN_FIRST="cell:variant,..;.."] [PLAN="cell:variant,..;.."] [PLAN_S=90] [PLAN_T=PLAN_S+10]
#   bash shared/device/sgl_check.sh
set -u
tests=packages/topk-sgl-fused/tests
plan() {
  SGL_PLAN="$1" timeout "${PLAN_T:-$(( ${PLAN_S:-90} + 10 ))}" python3 shared/device/sgl10_bench.py "${PLAN_S:-90}" 2>&1 \
    | grep -E "^ +[0-9]+x"
}
files() {
  timeout "${FILES_S:-200}" python3 -m pytest -q -p no:cacheprovider -n "$1" $(for f in $FILES; do echo "$tests/$f"; done) \
    > "$OUT/pytest-files.log" 2>&1
}
if [ -n "${PLAN_FIRST:-}" ]; then plan "$PLAN_FIRST"; fi
if [ -n "${FILES:-}" ] && [ "${BESIDE:-1}" = 1 ]; then files 6 & fi
SAN_CASES=${SAN_CASES:-none} SAN_S=${SAN_S:-200} TEST_S=${TEST_S:-200} bash shared/device/tests_and_san.sh sgl_fused sgl \
  -n "${WORKERS:-6}" -m gpu packages/topk-sgl-fused
wait
if [ -n "${FILES:-}" ]; then
  echo "=== $FILES"
  if [ "${BESIDE:-1}" != 1 ]; then files 12; fi
  grep -E "passed|failed|error" "$OUT/pytest-files.log" | tail -2
  grep -E "^(FAILED|ERROR)|^E " "$OUT/pytest-files.log" | head -12
fi
if [ -n "${PLAN:-}" ]; then plan "$PLAN"; fi
echo "=== done ($(date +%T))"
