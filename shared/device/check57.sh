#!/bin/bash
# Session 57 (carry .carry/dsl): the float32 resident path's packed count steps (ResidentConfig.packed) against the
# shipped picks on its cells (sgl10_bench.py, none / page table, every input checked exact), twice; test_resident.py's
# packed and GPU-size cases; on an H200 then the committed dsa grid (h200_dsa55.sh) in what is left.
#   TOPK_COMMIT=<hash> TAG=session57 bash shared/device/run.sh bash shared/device/check57.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/card.sh"
PLAN="1x8K:noold,pick,pickpk1,pickpk2,pickpk3,pickpk4,pick,pickpk2,pickpk3;1x5K:noold,pick,pickpk2,pickpk3"
PLAN="$PLAN;8x8K:noold,pick,pickpk2,pickpk3;128x8K:noold,pick,pickpk3"
bash "$here/sgl_plan.sh" "packed count steps" sgl57.log 160 "$PLAN"
echo "=== test_resident.py packed + GPU sizes ($(date +%T))"
timeout 100 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_resident.py \
  -k "packed or gpu_sizes" 2>&1 | tail -4
if is_h200; then
  timeout 250 bash "$here/h200_dsa55.sh"
fi
