#!/bin/bash
# Session 57 (call 2, at commit c6e09d3): the packed count steps (ResidentConfig.packed, sgl10_bench.py "pickpk<N>";
# both removed after: measured slower) against the picks on 1x8K and 8x8K, then test_resident.py's packed cases
# (test_packed_steps and the packed GPU sizes). No DSL needed. To rerun: git checkout c6e09d3 first.
#   bash shared/device/run.sh bash shared/device/check57b.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/sgl_plan.sh" "packed count steps" sgl57b.log 110 \
  "1x8K:noold,pick,pickpk2,pickpk3,pickpk4,pick,pickpk3;8x8K:noold,pick,pickpk3"
echo "=== test_resident.py packed ($(date +%T))"
timeout 70 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_resident.py -k "packed" 2>&1 \
  | tail -4
