#!/bin/bash
# Session 56, call 1 (carry .carry/dsl), each stage cut to what is left of DEADLINE seconds (default 540):
# 1. gather_order56.py: the page-table pass over the column orders our kernels emit, and sorted;
# 2. compose_bench.py dsa with the "model" variant, the data to refit sgl.COMPOSE_US there.
# On any card but an H200 nothing runs (ANY_CARD=1: step 1 alone; it ran so on an H100 as call 3 of session 56's log).
# The committed run follows in call 2 on the same warm machine (carry .carry/flashinfer; final56.sh).
#   DEADLINE=540 bash shared/device/run.sh bash shared/device/check56.sh
set -u
. "$(dirname "$0")/deadline.sh"
. "$(dirname "$0")/card.sh"
is_h200 || { echo "not an H200 (ANY_CARD=1 runs the probe anyway): nothing run"; exit 0; }
echo "=== gather order ($(date +%T))"
timeout $(left 200) python3 shared/device/gather_order56.py > "$OUT/gather-order.log" 2>&1
echo "rc $?"; tail -8 "$OUT/gather-order.log"
if ANY_CARD=0 is_h200; then
  echo "=== compose_bench dsa ($(date +%T))"
  timeout $(left 300) python3 shared/device/compose_bench.py dsa fused,tpass,torch,model > "$OUT/compose.log" 2>&1
  echo "rc $?"; grep -v "topk bench:" "$OUT/compose.log" | tail -24
else
  echo "not an H200: compose_bench skipped"
fi
echo "=== done ($(date +%T))"
