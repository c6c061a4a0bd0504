#!/bin/bash
# Session 45: the longest_first work of sessions 39 and 42 on one warm machine (carry .carry/dsl), before the
# committed run (then, within 30 s, carry .carry/flashinfer:
#   TOPK_COMMIT=<hash> TAG=session45 bash shared/device/bench.sh bash shared/device/final44.sh).
# 1. radix_filter's longest_first GPU tests and the workspace's spelling test (31 passed on an H100, session 44);
# 2. the radix_filter A/B at 4096x8K, 2048x8K, 1024x64K, 512x128K (find_ab.py: each config checked exact first);
# 3. sgl_fused's longest_first GPU tests (session 39's, never run on a GPU), then memcheck and racecheck of them.
#   bash shared/device/run.sh bash shared/device/check45.sh
set -u
echo "=== radix_filter longest_first + scratch spelling tests ($(date +%T))"
timeout 120 python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  packages/topk-core/tests/test_ops_workspace_cli.py -k "longest_first or spellings" > "$OUT/pytest-rf-lf.log" 2>&1
echo "=== rc $?"; tail -3 "$OUT/pytest-rf-lf.log"
echo "=== find_ab lf ($(date +%T))"
FIND_AB=${FIND_AB:-lf3,lf6,lf1,lf2} FIND_CELLS=${FIND_CELLS:-6,16,7,5} timeout 150 python3 shared/device/find_ab.py
bash "$(dirname "$0")/sgl_lf_tests.sh" 150 150  # the tests, then memcheck and racecheck of them
echo "=== done ($(date +%T))"
