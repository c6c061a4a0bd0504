#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 12: the two-read path's early stop (find_ab.py: new =
# fastkey + pstore1 as planned, f0 = session 11's build, fpx = with early), the GPU tests of the flags, then ncu
# of 4096x8K, bf16 128x128K and 128x32K: executed instructions per phase (ncu_phases.py), stall-heaviest lines.
#   bash shared/device/run.sh bash shared/device/iter12b.sh [ab_s] [test_s]
set -u
here=$(cd "$(dirname "$0")" && pwd)
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-f0,fpx} FIND_CELLS=${FIND_CELLS:-6,16,15,13} timeout ${1:-150} python3 shared/device/find_ab.py
echo "=== tests ($(date +%T))"
timeout ${2:-120} python3 -m pytest -q -x -m gpu -p no:cacheprovider --import-mode=importlib \
  -k "fastkey or pstore1 or early" packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -15
for cell in "4096 8192 radix_filter float32" "128 131072 radix_filter bfloat16" "128 32768 radix_filter float32" "32 131072 radix_filter float32"; do
  echo "=== ncu $cell ($(date +%T))"
  tag=$(echo $cell | tr ' ' _)
  timeout 100 ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
    --section SourceCounters --page source --print-source sass --csv \
    python3 "$here/rf_profile.py" $cell > "$OUT/src_$tag.csv" 2>/dev/null
  python3 "$here/ncu_phases.py" "$OUT/src_$tag.csv"
  python3 "$here/ncu_top.py" "$OUT/src_$tag.csv" 12
done
echo "=== done ($(date +%T))"
