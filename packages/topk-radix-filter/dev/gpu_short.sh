#!/bin/bash
# Dev-only: the shortest useful device call (about 100 s): smoke cases, the conformance
# kit's core, memcheck, and the DSA grid for the default variant only.
set -u
P=packages/topk-radix-filter
echo "== smoke"
TOPK_CACHE_DIR=/tmp/rf-cold timeout 25 python3 $P/dev/startup.py
if timeout 30 python3 $P/dev/cases.py smoke; then
  echo "== bench"
  timeout 30 python3 $P/bench_quick.py --shapes dsa 2>&1 | tail -12
fi
echo "== pytest"
timeout 45 python3 -m pytest -q -p no:cacheprovider --maxfail=8 $P/tests/test_conformance.py -k "TestRadixFilter and not long_rows and not pruned" 2>&1 | grep -v "^    \|^  File\|^$" | tail -30
echo "== memcheck"
timeout 20 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $P/dev/cases.py sanitize 2>&1 | tail -6
