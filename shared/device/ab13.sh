#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~300 s: the two helpers' A/Bs of session 13 back to back, no tests
# (their GPU tests run in the final call's full suites):
#  (a) radix_filter sparse1 (find_ab.py alt s1) on 4096x8K and the other N < 16K cells (rf13.sh's A/B);
#  (b) sgl_fused's lazy page table (sgl13.sh's bench, every input checked exact first).
#   bash shared/device/run.sh bash shared/device/ab13.sh [rf_s] [sgl_s]
set -u
echo "=== radix_filter A/B ($(date +%T))"
FIND_AB=s1 FIND_CELLS=${FIND_CELLS:-6,16,15,14,13,18,17} timeout ${1:-120} python3 shared/device/find_ab.py
echo "=== sgl_fused bench ($(date +%T))"
export SGL_JSON=sgl13.json
export SGL_PLAN=${SGL_PLAN:-"4096x8K:noold,w4,w4lateold,w4lateoldlazym80,w4latelazym80;\
1024x64K:noold,w8,w4lateold,w8lateold,w8lateoldlazy,w4lateoldlazym80;\
512x128K:noold,w8,w8lateold,w8lateoldlazy,w8latelazy;128x128K:noold,w16,w16lateold,w16lateoldlazy;\
1x8K:noold,w8,w8late,w8latelazy"}
timeout $(( ${2:-150} + 20 )) python3 shared/device/sgl10_bench.py ${2:-150} 2>&1 | grep -v "^RESULT"
echo "=== done ($(date +%T))"
