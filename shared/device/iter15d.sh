#!/bin/bash
# Session 15, call 4 (carry .carry/dsl): radix_filter SHORT_MANY's first digit of 10 / 12 bits (4096x8K, 2048x8K);
# radix's side kernel as other radix_filter variants (32x128K, 16x128K).
#   bash shared/device/run.sh bash shared/device/iter15d.sh
# fb10 failed its exactness check here and was removed after (its second digit is wider than the first, which
# RadixTopK now refuses); find_ab.py now times fb12 alone for this FIND_AB.
set -u
echo "=== SHORT_MANY first digit ($(date +%T))"
FIND_CELLS=6,16 FIND_AB=fb10,fb12 timeout 150 python3 shared/device/find_ab.py
echo "=== side variants ($(date +%T))"
SIDE_CELLS=32x128,16x128 SIDE_ALTS=DEFAULT,LIGHT,FEW_LONG_ROWS timeout 120 python3 shared/device/side_ab.py
echo "=== done ($(date +%T))"
