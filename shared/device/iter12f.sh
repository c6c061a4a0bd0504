#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 12: radix_filter's filter writing kept elements by a loop
# over the tile mask's set bits (find_ab.py: new = shipped, sp = sparse) on issue 4's cells and the 16-bit cells,
# then the sparse GPU tests.
#   bash shared/device/run.sh bash shared/device/iter12f.sh [ab_s] [test_s]
set -u
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-sp} FIND_CELLS=${FIND_CELLS:-8,3,2,1,0,4,5,7,9,22,23,25,26} timeout ${1:-150} python3 shared/device/find_ab.py
echo "=== tests ($(date +%T))"
timeout ${2:-120} python3 -m pytest -q -x -m gpu -p no:cacheprovider --import-mode=importlib \
  -k "sparse" packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -15
echo "=== done ($(date +%T))"
