#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 11: (1) sgl_fused warp-path configs beside the
# default (sgl10_bench.py, SGL_PLAN below unless set), (2) radix_filter clock stamps of the shipped variant on
# fp32 and bf16 128x128K (find_ab.py), (3) ncu of radix_filter bf16 128x128K (rf_ncu.sh, SASS hot spots).
#   bash shared/device/run.sh bash shared/device/iter11a.sh [sgl_s] [stamps_s] [ncu_s]
set -u
export SGL_PLAN=${SGL_PLAN:-"1x8K:w16,w8,w32;8x32K:w16,w32;32x128K:w16,w32;128x32K:w16,w16late;128x128K:w16,w16late;4096x8K:w4,w4late;1024x64K:w8,w8late,w4,w4late"}
echo "=== sgl_fused ($(date +%T))"
timeout ${1:-170} python3 shared/device/sgl10_bench.py $(( ${1:-170} - 30 )) 2>&1 | grep -v "^RESULT"
echo "=== radix_filter stamps ($(date +%T))"
FIND_AB=new FIND_CELLS=${FIND_CELLS:-3,8} timeout ${2:-60} python3 shared/device/find_ab.py stamps
echo "=== ncu ($(date +%T))"
timeout ${3:-110} bash shared/device/rf_ncu.sh "128 131072 radix_filter bfloat16"
echo "=== done ($(date +%T))"
