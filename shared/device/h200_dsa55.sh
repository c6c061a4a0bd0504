#!/bin/bash
# Session 55: the dsa grid with the SGL transforms, on an H200 only (carry .carry/dsl; no FlashInfer, whose bundle does
# not fit beside it in one call: the issues' peer numbers are the H200's of earlier runs). Any other card: nothing run.
#   TOPK_COMMIT=<hash> TAG=session55 bash shared/device/run.sh bash shared/device/h200_dsa55.sh
set -u
. "$(dirname "$0")/card.sh"
is_h200 || { echo "not an H200 ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)): nothing run"; exit 0; }
python3 -m topk_core bench --grid dsa --sgl --out "$OUT" --replays 10 --tag "${TAG:-session55}" 2>&1 | tr '\r' '\n' \
  | grep -v "topk bench: *[0-9]*%" | tail -40
