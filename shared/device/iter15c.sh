#!/bin/bash
# Session 15, call 3 (carry .carry/dsl): radix 0.6.0's GPU tests (side rows, (8, 256, 8) for 8K-16K rows: the
# conformance class, slice edges with push0 / spare / relaxed_exit, the decode grid) beside memcheck and racecheck
# of the cases that take them (6x12001 on (8, 256, 8), 32x131072 split 30 + 2).
#   bash shared/device/run.sh bash shared/device/iter15c.sh
set -u
echo "=== tests + sanitizers ($(date +%T))"
SAN_CASES=6x12001,32x131072 SAN_S=240 TEST_S=250 bash shared/device/tests_and_san.sh radix radix15 \
  packages/topk-radix/tests/test_side_rows.py packages/topk-radix/tests/test_checks.py \
  packages/topk-radix/tests/test_conformance.py \
  -k "side or checks or TestRadix or k_edges or push0 or relaxed_exit or spare or decode_grid"
echo "=== done ($(date +%T))"
