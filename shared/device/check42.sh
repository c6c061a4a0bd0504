#!/bin/bash
# Session 42 (CPU only: no device was lent), prepared for the next device session. Three calls on one warm machine:
# 1. (this script, carry .carry/dsl, ~6 minutes) the probes that waited since sessions 39 and 41, each on a quiet GPU:
#    tail_probe.py (radix_filter and sgl_fused with seq_lens as drawn / longest first / shortest first, and the 8K
#    row sweep: does a longest-first order pay at 4096x8K, 3-4% from issue 4's floor target?), then gvr_probe.py
#    (gvr's `secant` variant: does 1x8K's hinted call come down to its no-hint 15.7 µs?):
#      bash shared/device/run.sh bash shared/device/check42.sh
# 2. within 30 s, carry .carry/flashinfer: the worst case of every backend beside the peers, rows with a 0.0 plateau
#    across the k-th value (topk-core 0.2.2's `--kind plateau`: the sampled brackets' candidates overflow and the
#    exact fallbacks run), the dsa grid without the SGL transforms:
#      bash shared/device/bench.sh bash -c 'python3 -m topk_core bench --grid dsa --kind plateau --out $OUT \
#        --replays 10 --tag session42'
# 3. radix_filter's longest_first (session 42, prepared): its GPU tests, then the A/B (check42b.sh's header).
set -u
echo "=== tail_probe ($(date +%T))"
timeout 330 python3 shared/device/tail_probe.py 2
echo "=== gvr_probe ($(date +%T))"
timeout 150 python3 shared/device/gvr_probe.py
echo "=== done ($(date +%T))"
