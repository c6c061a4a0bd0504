#!/bin/bash
# Session 56: the issue-4/6 columns of the dsa grid on an H200 only, for a call with little device time left (carry
# .carry/dsl): radix_filter, sgl_fused's v2 / page table / ragged / v2 on the page table's kernel, torch.topk, auto.
# Any other card: nothing run. Session 57: on a cold H200 the start and the kernels' compiles outran LIMIT_S=220
# (nothing written); the same call on the warm machine then took 27 s. On a cold machine give it LIMIT_S=400.
#   TOPK_COMMIT=<hash> TAG=session56-sub bash shared/device/run.sh bash shared/device/h200_sub56.sh
set -u
. "$(dirname "$0")/card.sh"
is_h200 || { echo "not an H200: nothing run"; exit 0; }
timeout ${LIMIT_S:-220} python3 -m topk_core bench --grid dsa --sgl --replays 10 --out "$OUT" --tag "${TAG:-session56-sub}" \
  --only radix_filter sgl_fused:v2 sgl_fused:page sgl_fused:ragged sgl_fused:v2@page torch.topk 2>&1 | tr '\r' '\n' \
  | grep -v "topk bench: *[0-9]*%" | tail -40
