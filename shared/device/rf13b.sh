#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 13b: radix_filter's two-read pass 0 counting raw bins of
# x + 0.0 (find_ab.py: new = shipped, rb = rawbin) on 4096x8K and the other cells of N < 16K. A/B only, no tests.
#   bash shared/device/run.sh bash shared/device/rf13b.sh
set -u
echo "=== A/B ($(date +%T))"
FIND_AB=rb FIND_CELLS=6,16,15,14,13 timeout 100 python3 shared/device/find_ab.py
echo "=== done ($(date +%T))"
