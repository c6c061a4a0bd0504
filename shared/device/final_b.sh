#!/bin/bash
# Second call of the final warm pair (carry .carry/flashinfer; CuTe DSL left by the first
# call): the committed benchmark tables, every backend beside FlashInfer in one process.
# GRIDS orders the grids (session 12's bench ran past the device budget during the second grid,
# so put first the one whose cells matter most this session). BENCH_ARGS: more options for every grid (session 40:
# "--hint", a previous decode step's pre_idx for every call, which gvr needs).
#   TAG=session13 GRIDS="decode dsa" bash shared/device/bench.sh bash shared/device/final_b.sh
set -u
for g in ${GRIDS:-dsa decode}; do
  sgl=""
  [ "$g" = dsa ] && sgl="--sgl"
  python3 -m topk_core bench --grid $g $sgl ${BENCH_ARGS:-} --out "$OUT" --replays 10 --tag ${TAG:-session12} 2>&1 \
    | tail -40
done
