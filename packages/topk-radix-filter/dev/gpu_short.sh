#!/bin/bash
# Dev-only: the shortest useful device call (about 90 s): startup times, smoke cases with a
# diagnosis of any failure, the DSA grid for the default variant, the conformance kit's core
# and memcheck. From the repo root, carrying .carry/dsl:
#   bash shared/device/run.sh bash packages/topk-radix-filter/dev/gpu_short.sh
set -u
P=packages/topk-radix-filter
echo "== startup (cold cache, then warm cache)"
TOPK_CACHE_DIR=/tmp/rf-cold timeout 25 python3 $P/dev/startup.py
TOPK_CACHE_DIR=/tmp/rf-cold timeout 20 python3 $P/dev/startup.py
echo "== smoke"
if timeout 30 python3 $P/dev/cases.py smoke; then
  echo "== bench"
  timeout 30 topk bench --grid dsa --only radix_filter torch.topk --no-save 2>&1 | tail -12
fi
echo "== pytest"
timeout 60 python3 -m pytest -q -p no:cacheprovider --tb=line --maxfail=10 $P/tests/test_conformance.py \
  -k "not long_rows and not pruned and not variant" 2>&1 | tail -25
echo "== memcheck"
timeout 25 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $P/dev/cases.py sanitize > /tmp/rf-mc.log 2>&1
echo "memcheck rc=$?"; grep -m 3 -A 6 "Invalid\|Error:" /tmp/rf-mc.log; tail -3 /tmp/rf-mc.log
