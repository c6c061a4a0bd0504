#!/bin/bash
# Session 44 (prepared for the next H200 session; carry .carry/dsl). radix_filter's longest_first GPU tests and the
# workspace's spelling test (31 passed on an H100 in session 44, after the test read its order under the logits'
# device), then the longest_first A/B at 4096x8K (find_ab.py: each config checked exact first; on the H100 lf3 and
# lf6 were 2-3.5% slower than shipped, so this is the deciding run before the code is dropped).
#   bash shared/device/run.sh bash shared/device/check44b.sh
# Then, within 30 s (carry .carry/flashinfer), the committed run:
#   TOPK_COMMIT=<hash> TAG=session45 bash shared/device/bench.sh bash shared/device/final44.sh
set -u
echo "=== longest_first + scratch GPU tests ($(date +%T))"
timeout 200 python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  packages/topk-core/tests/test_ops_workspace_cli.py -k "longest_first or spellings" > "$OUT/pytest-lf.log" 2>&1
echo "=== rc $?"; tail -5 "$OUT/pytest-lf.log"
echo "=== find_ab lf at 4096x8K ($(date +%T))"
FIND_AB=${FIND_AB:-lf3,lf6,lf3s,lf6s} FIND_CELLS=${FIND_CELLS:-6} timeout 220 python3 shared/device/find_ab.py
echo "=== done ($(date +%T))"
