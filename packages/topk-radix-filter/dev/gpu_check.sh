#!/bin/bash
# Dev-only: the whole device cycle in one call. From the repo root, carrying .carry/dsl:
#   bash shared/device/run.sh bash packages/topk-radix-filter/dev/gpu_check.sh [dsa|decode|small]
# SHORT=1 (about 90 s) runs the conformance core and memcheck only; the default (about 250 s)
# runs every test and racecheck too. When the smoke cases fail the benchmark is skipped.
set -u
P=packages/topk-radix-filter
echo "== startup (cold cache, then warm cache)"
TOPK_CACHE_DIR=/tmp/rf-cold timeout 30 python3 $P/dev/startup.py
TOPK_CACHE_DIR=/tmp/rf-cold timeout 30 python3 $P/dev/startup.py
echo "== smoke"
if timeout 30 python3 $P/dev/cases.py smoke; then
  echo "== bench"
  timeout 60 python3 -m topk_core bench --grid ${1:-dsa} --only radix_filter torch.topk --no-save 2>&1 | tail -20
fi
echo "== pytest"
if [ "${SHORT:-0}" = 1 ]; then
  tests="$P/tests/test_conformance.py -k not(long_rows)and(not(variant))"; tools=memcheck
else
  tests=$P/tests; tools="memcheck racecheck"
fi
timeout 75 python3 -m pytest -q -p no:cacheprovider --tb=line --maxfail=12 $tests 2>&1 | tail -40
for tool in $tools; do
  echo "== $tool"
  timeout 25 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
    python3 $P/dev/cases.py sanitize > /tmp/rf-$tool.log 2>&1
  echo "$tool rc=$?"; grep -m 3 -A 6 "Invalid\|Error:\|Race\|Hazard" /tmp/rf-$tool.log; tail -3 /tmp/rf-$tool.log
done
