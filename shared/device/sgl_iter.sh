#!/bin/bash
# Dev only, one device call: the two-launch path's own GPU tests, then pick's choice timed
# (checked exact first) on issue 6's cells, transform off and on.
#   bash shared/device/run.sh bash shared/device/sgl_iter.sh [budget_seconds]
set -u
timeout 150 python3 -m pytest -q -p no:cacheprovider packages/topk-sgl-fused/tests/test_split.py 2>&1 | tail -4
VARIANTS_ONLY_PICK=1 python3 packages/topk-sgl-fused/bench_variants.py ${1:-100}
