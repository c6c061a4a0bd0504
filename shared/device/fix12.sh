#!/bin/bash
# Session 12, after final12.sh's racecheck flagged radix_filter's early stop (hist[b] read, then the next digit's
# clear without a barrier between): the flag tests again and racecheck/memcheck of the two flagged cases.
#   bash shared/device/run.sh bash shared/device/fix12.sh
set -u
timeout 100 python3 -m pytest -q -x -m gpu -p no:cacheprovider \
  -k "early or batch_shapes" packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -3
for tool in racecheck memcheck; do
  echo "=== $tool radix_filter 2100x3000 5x8191 6x12001"
  SAN_CASES=2100x3000,5x8191,6x12001 timeout 45 compute-sanitizer --tool $tool --report-api-errors no \
    python3 shared/device/sanitize_cases.py radix_filter 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -6
done
