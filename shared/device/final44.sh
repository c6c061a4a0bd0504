#!/bin/bash
# Session 44: the committed run in one call (carry .carry/flashinfer; CuTe DSL left by the call before on the same
# warm machine): dsa with the SGL transforms, decode, then decode with a hint (gvr's column), each with 10 replays.
#   TOPK_COMMIT=<hash> TAG=session44 bash shared/device/bench.sh bash shared/device/final44.sh
set -u
for args in "--grid dsa --sgl" "--grid decode" "--grid decode --hint"; do
  echo "=== topk bench $args ($(date +%T))"
  python3 -m topk_core bench $args --out "$OUT" --replays 10 --tag ${TAG:-session44} 2>&1 | tr '\r' '\n' \
    | grep -v "topk bench: *[0-9]*%" | tail -40
done
echo "=== done ($(date +%T))"
