#!/bin/bash
# Session 44, first H200 call (carry .carry/dsl): radix_filter's longest_first GPU tests (their order check read a
# fresh buffer under "cuda" beside the kernel's under "cuda:0": fixed in the test and in workspace.scratch), the
# workspace's spelling test, then the longest_first A/B at 4096x8K (find_ab.py: each config checked exact first).
#   bash shared/device/run.sh bash shared/device/check44b.sh
set -u
echo "=== longest_first + scratch GPU tests ($(date +%T))"
timeout 200 python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  packages/topk-core/tests/test_ops_workspace_cli.py -k "longest_first or spellings" > "$OUT/pytest-lf.log" 2>&1
echo "=== rc $?"; tail -5 "$OUT/pytest-lf.log"
echo "=== find_ab lf at 4096x8K ($(date +%T))"
FIND_AB=${FIND_AB:-lf3,lf6,lf3s,lf6s} FIND_CELLS=${FIND_CELLS:-6} timeout 220 python3 shared/device/find_ab.py
echo "=== done ($(date +%T))"
