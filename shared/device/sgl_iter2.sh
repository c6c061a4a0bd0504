#!/bin/bash
# Dev only, one device call (Triton only): sgl_fused's GPU tests, pick's choice timed (checked
# exact first) transform off/on with launch alternatives, then ncu counts of the two kernels
# on two cells.
#   bash shared/device/run.sh bash shared/device/sgl_iter2.sh [bench_budget_seconds]
set -u
timeout 240 python3 -m pytest -q -m gpu -x -p no:cacheprovider packages/topk-sgl-fused 2>&1 | tail -6
VARIANTS_ONLY_PICK=1 VARIANTS_SPLIT_ALT=1 timeout 200 python3 packages/topk-sgl-fused/bench_variants.py ${1:-110}
for cell in 128x131072 4096x8192; do
  echo "=== ncu $cell"
  timeout 60 ncu --clock-control none --kernel-name regex:"filter_kernel|select_kernel" --launch-skip 4 \
    --launch-count 2 --metrics smsp__inst_executed.sum,gpu__time_duration.sum,launch__registers_per_thread \
    python3 shared/device/sgl_profile.py --plain $cell 2>&1 | grep -E "_kernel|inst_executed|duration|registers"
done
