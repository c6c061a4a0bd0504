#!/bin/bash
# Second call of the warm pair (FlashInfer unpacked by the first): the committed tables.
#   bash shared/device/bench.sh bash shared/device/final_bench.sh
set -u
python3 -m topk_core bench --grid dsa --sgl --out "$OUT" --replays 10 --tag final
python3 -m topk_core bench --grid decode --out "$OUT" --replays 10 --tag final
python3 shared/device/startup_check.py radix_cutlass radix_filter radix
