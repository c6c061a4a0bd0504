#!/bin/bash
# Session 15, call 1 (carry .carry/dsl): (1) fork_probe.py: 32x128K's two rows past radix's cluster wave on
# radix_filter in a forked stream beside it; (2) radix's prepared geometry A/B (push0 on clusters of 4, thinner
# slices for 16K-32K rows; packages/topk-radix/NOTES.md, session 14 "Next").
#   bash shared/device/run.sh bash shared/device/iter15a.sh
set -u
echo "=== fork probe ($(date +%T))"
timeout 200 python3 shared/device/fork_probe.py
echo "=== radix geometries ($(date +%T))"
STAMPS=0 SWEEP=0 RADIX_GEO_FLAGS="push0=1,spare=1" \
  RADIX_GEOS="1x16:4,512,8;1x16:8,256,8;1x16:16,256,4;1x32:16,256,8;1x32:8,256,16;8x32:16,256,8;32x32:4,512,16" \
  timeout 200 python3 shared/device/radix_iter.py
echo "=== done ($(date +%T))"
