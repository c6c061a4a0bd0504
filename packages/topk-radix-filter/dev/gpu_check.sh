#!/bin/bash
# Dev-only: the whole device cycle in one call (about 250 s). From the repo root:
#   bash shared/device/run.sh bash packages/topk-radix-filter/dev/gpu_check.sh [dsa|decode|small]
# When the smoke cases fail, the benchmark is skipped and the failures get the time.
set -u
P=packages/topk-radix-filter
echo "== startup (cold cache, then warm cache)"
TOPK_CACHE_DIR=/tmp/rf-cold timeout 30 python3 $P/dev/startup.py
TOPK_CACHE_DIR=/tmp/rf-cold timeout 30 python3 $P/dev/startup.py
echo "== smoke"
if timeout 30 python3 $P/dev/cases.py smoke; then
  echo "== bench"
  timeout 60 topk bench --grid ${1:-dsa} --only radix_filter torch.topk --no-save 2>&1 | tail -20
fi
echo "== pytest"
timeout 75 python3 -m pytest -q -p no:cacheprovider --tb=line --maxfail=12 $P/tests 2>&1 | tail -40
for tool in memcheck racecheck; do
  echo "== $tool"
  timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 python3 $P/dev/cases.py sanitize > /tmp/rf-$tool.log 2>&1
  echo "$tool rc=$?"; grep -m 3 -A 6 "Invalid\|Error:\|Race\|Hazard" /tmp/rf-$tool.log; tail -3 /tmp/rf-$tool.log
done
