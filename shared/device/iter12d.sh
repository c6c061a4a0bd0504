#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 12: the two-read path with a shfl-predicate scan and
# set/lop3 compares (find_ab.py: new = SHORT_F32 / SHORT_MANY as planned, f0 = session 11's build, vu = with
# vclear and unitdiv), the GPU tests of the flags and of plan()'s batch shapes, then ncu of 4096x8K.
#   bash shared/device/run.sh bash shared/device/iter12d.sh [ab_s] [test_s]
set -u
here=$(cd "$(dirname "$0")" && pwd)
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-f0,vu} FIND_CELLS=${FIND_CELLS:-6,16,15,13,18,0,2,3,8,4,7,1} timeout ${1:-200} python3 shared/device/find_ab.py
echo "=== tests ($(date +%T))"
timeout ${2:-120} python3 -m pytest -q -x -m gpu -p no:cacheprovider --import-mode=importlib \
  -k "fastkey or pstore1 or early or vclear or batch_shapes" packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -15
echo "=== ncu 4096x8K ($(date +%T))"
timeout 100 ncu --clock-control none --kernel-name regex:kernel --launch-skip 2 --launch-count 1 \
  --section SourceCounters --page source --print-source sass --csv \
  python3 "$here/rf_profile.py" 4096 8192 > "$OUT/src_4096x8192.csv" 2>/dev/null
python3 "$here/ncu_phases.py" "$OUT/src_4096x8192.csv"
echo "=== done ($(date +%T))"
