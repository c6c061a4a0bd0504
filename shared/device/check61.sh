#!/bin/bash
# Session 61, call 1 of a warm pair on what is left of the budget (carry .carry/dsl):
# - on an H200: `topk bench --grid dsa --sgl`, every installed backend but FlashInfer (not carried), which also fills
#   the kernel caches for call 2 (final56.sh, carry .carry/flashinfer, within 30 s on the same machine);
# - on any other card: the GPU suites check59.sh does not run there (sgl_fused, gvr, radix), each cut to `left 150`.
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check61.sh
# Session 61 ran it once (call 2, on an H100): sgl_fused's suite needs more than 150 s while its Triton kernels
# compile cold (it passed in 15 s once they were cached); gvr passed; radix got what DEADLINE left.
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session61-dsl
h200_dsa_grid || gpu_suites 150 packages/topk-sgl-fused/tests packages/topk-gvr/tests packages/topk-radix/tests
echo "=== done ($(date +%T))"
