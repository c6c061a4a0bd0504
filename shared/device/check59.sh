#!/bin/bash
# Session 59, call 1 (carry .carry/dsl), each stage cut to what is left of DEADLINE seconds (deadline.sh's default 540):
# (on an H200 the dsa grid of step 2 runs first, then step 1, then the decode grid)
# 1. find_ab.py stamps on 128x32K, 32x32K and 128x128K (FIND_CELLS, default 2,0,3), warm rows (input 0 three
#    times) then cold rows (STAMP_COLD=1: input 0 after every other input set), so the two can be set side by side
#    (radix_filter NOTES.md, session 58's next step);
# 2. on an H200: the dsa grid with the SGL transforms and then the decode grid, every installed backend but FlashInfer
#    (not carried in this call), which also fills the kernel caches for the committed run of call 2 (final56.sh,
#    carry .carry/flashinfer, within 30 s on the same machine);
#    on any other card: the GPU suites of topk-core and radix_cutlass instead.
#   DEADLINE=580 bash shared/device/run.sh bash shared/device/check59.sh
# Session 59 asked for it 22 times (FIND_CELLS=2,0,3, DEADLINE 575 down to 170) and never got a machine
# (benchmarks/results/2026-12-07-cuda-session59-iterations.log): not run yet. Its stamped builds compile on CPU.
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
. "$(dirname "$0")/stages.sh"
DEFAULT_TAG=session59-dsl
if is_h200; then bench_dsl --grid dsa --sgl; fi
warm_cold_stamps
if is_h200; then
  bench_dsl --grid decode
else
  gpu_suites 300 packages/topk-core/tests packages/topk-radix-cutlass/tests
fi
echo "=== done ($(date +%T))"
