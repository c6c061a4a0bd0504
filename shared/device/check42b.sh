#!/bin/bash
# Session 42 (prepared on CPU), the third call of check42.sh's plan (carry .carry/dsl, or none on the warm machine):
# radix_filter's longest_first (row_order.py) on the GPU: its 30 exactness cases (eager and graph replay, PDL and
# serialized, five many-wave variants), then the A/B at 4096x8K, 2048x8K, 1024x64K and 512x128K (find_ab.py: each
# config checked exact on its first input before it is timed, two rounds). ~7 minutes, mostly compiles.
#   bash shared/device/run.sh bash shared/device/check42b.sh
set -u
echo "=== longest_first GPU tests ($(date +%T))"
timeout 300 python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  -k longest_first > "$OUT/pytest-lf.log" 2>&1
echo "=== rc $?"; tail -5 "$OUT/pytest-lf.log"
echo "=== find_ab lf ($(date +%T))"
FIND_AB=lf1,lf1s,lf2,lf2s,lf3,lf3s,lf6,lf6s FIND_CELLS=6,16,7,5 timeout 240 python3 shared/device/find_ab.py
echo "=== done ($(date +%T))"
