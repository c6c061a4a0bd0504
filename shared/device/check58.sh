#!/bin/bash
# Session 58, call 1 (carry .carry/dsl), each stage cut to what is left of DEADLINE seconds (default 560):
# 1. find_ab.py: radix_filter's shipped variant against ``fh``, ``ts``, ``fts`` (fhist, tilesel, both toggled) on
#    32x32K, 128x32K, 128x128K, 128x128K k=512 (ts alone on 32x128K, 1024x64K, 512x128K), two alternating rounds,
#    every configuration checked exact first;
# 2. their GPU tests (test_conformance.py -k "fhist or tilesel");
# 3. GPU suites in the time left: sgl_fused's, topk-core's (the kit over every backend), then radix_filter's.
#   DEADLINE=560 bash shared/device/run.sh bash shared/device/check58.sh
# Needs commit 71e2d46: fhist and tilesel were removed after it (no faster on an H100, radix_filter NOTES.md session 58).
# As run (call 1 of benchmarks/results/2026-12-06-cuda-session58-iterations.log): DEADLINE=190 AB_S=130
# FIND_CELLS=2,0,3 TESTS_K="every_benchmarked and (fhist or tilesel)".
set -u
. "$(dirname "$0")/deadline.sh"
echo "=== find_ab fh ($(date +%T))"
FIND_AB=fh,ts,fts FIND_CELLS=${FIND_CELLS:-0,2,3,9,1,7,5} timeout $(left ${AB_S:-210}) \
  python3 shared/device/find_ab.py > "$OUT/find-ab-fh.log" 2>&1
echo "rc $?"; grep -v "^ *$" "$OUT/find-ab-fh.log" | tail -9
echo "=== pytest fhist or tilesel ($(date +%T))"
timeout $(left 170) python3 -m pytest -q -rA -p no:cacheprovider -m gpu \
  packages/topk-radix-filter/tests/test_conformance.py -k "${TESTS_K:-fhist or tilesel}" > "$OUT/pytest-fhist.log" 2>&1
echo "rc $?"; bash shared/device/pytest_summary.sh "$OUT/pytest-fhist.log" | tail -4
for suite in packages/topk-sgl-fused/tests packages/topk-core/tests packages/topk-radix-filter/tests; do
  tag=$(echo "$suite" | tr '/' '_')
  echo "=== pytest $suite ($(date +%T))"
  timeout $(left 400) python3 -m pytest -q -rA -p no:cacheprovider -m gpu -k "not fhist and not tilesel" "$suite" \
    > "$OUT/pytest-$tag.log" 2>&1
  echo "rc $?"; grep -E "passed|failed" "$OUT/pytest-$tag.log" | tail -1; grep -E "^(FAILED|ERROR)" "$OUT/pytest-$tag.log" | head -5
done
echo "=== done ($(date +%T))"
