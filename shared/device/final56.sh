#!/bin/bash
# Session 56, call 2 of the warm pair (carry .carry/flashinfer; CuTe DSL left by call 1 on the same machine): the
# committed dsa grid with the SGL transforms, then the decode grid if DEADLINE (default 540 s) leaves room.
#   DEADLINE=540 TOPK_COMMIT=<hash> TAG=session56 bash shared/device/bench.sh bash shared/device/final56.sh
set -u
. "$(dirname "$0")/deadline.sh"
for args in "--grid dsa --sgl" "--grid decode"; do
  echo "=== topk bench $args ($(date +%T))"
  timeout $(left 330) python3 -m topk_core bench $args --out "$OUT" --replays 10 --tag ${TAG:-session56} 2>&1 \
    | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -40
done
echo "=== done ($(date +%T))"
