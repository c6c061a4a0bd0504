#!/bin/bash
# Second call of the final warm pair (carry .carry/flashinfer; CuTe DSL left by the first
# call): the committed benchmark tables, every backend beside FlashInfer in one process.
#   bash shared/device/bench.sh bash shared/device/final_b.sh
set -u
python3 -m topk_core bench --grid dsa --sgl --out "$OUT" --replays 10 --tag ${TAG:-session11} 2>&1 | tail -40
python3 -m topk_core bench --grid decode --out "$OUT" --replays 10 --tag ${TAG:-session11} 2>&1 | tail -25
