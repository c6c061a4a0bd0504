#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 13: radix_filter's two-read path with pass 1's candidates
# written by a loop over their bits, the bin's float edges computed once per row and pass 0's whole steps without
# per-vector tests (find_ab.py: new = shipped, s1 = sparse1) on 4096x8K and the other cells of N < 16K (SHORT_MANY,
# SHORT_F32), then the sparse1 GPU tests.
#   bash shared/device/run.sh bash shared/device/rf13.sh [ab_s] [test_s]
set -u
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-s1} FIND_CELLS=${FIND_CELLS:-6,16,15,14,13,18,17} timeout ${1:-120} python3 shared/device/find_ab.py
echo "=== tests ($(date +%T))"
# the batch shapes and special bits first (29 tests), then every_benchmarked's five kinds (25)
for sel in "batches or special_bits" "every_benchmarked"; do
  timeout $(( ${2:-90} / 2 )) python3 -m pytest -q -x -m gpu -p no:cacheprovider --import-mode=importlib \
    -k "sparse1 and ($sel)" packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -8
done
echo "=== done ($(date +%T))"
