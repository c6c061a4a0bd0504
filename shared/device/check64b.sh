#!/bin/bash
# Session 64, for a short call (~200-300 s; carry .carry/dsl):
# - on an H200: issue 4's grid for radix_filter 0.10.7 (wrank) beside torch.topk (no FlashInfer, not carried):
#   `topk bench --grid dsa --only radix_filter torch.topk` (auto is timed too);
# - elsewhere: check64.sh's sanitizer step alone (SAN_ONLY=1).
#   TOPK_COMMIT=<hash> DEADLINE=220 bash shared/device/run.sh bash shared/device/check64b.sh
set -u
. "$(dirname "$0")/stages.sh"
if is_h200; then
  echo "=== topk bench --grid dsa --only radix_filter torch.topk ($(date +%T))"
  timeout $(left 600) python3 -m topk_core bench --grid dsa --only radix_filter torch.topk --out "$OUT" --replays 5 \
    --tag session64-rf 2>&1 | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -30
else
  SAN_ONLY=1 NO_GRID=1 bash "$(dirname "$0")/check64.sh"
fi
echo "=== done ($(date +%T))"
