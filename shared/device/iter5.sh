#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix's register-kernel variants and sub-phase
# clocks, then sgl_fused's pick timed with the page table on and off (checked exact first)
# and its GPU tests of the transforms.
#   bash shared/device/run.sh bash shared/device/iter5.sh [sgl_budget_seconds]
set -u
timeout 200 python3 shared/device/radix_iter.py
VARIANTS_ONLY_PICK=1 timeout 150 python3 packages/topk-sgl-fused/bench_variants.py ${1:-100}
timeout 90 python3 -m pytest -q -m gpu -x -p no:cacheprovider packages/topk-sgl-fused -k "page or transform or ragged" 2>&1 | tail -4
