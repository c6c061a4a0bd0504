#!/bin/bash
# Dev only, one device call (carry .carry/dsl), session 12: radix_filter's two-read path (SHORT, SHORT_MANY) with
# fastkey / pstore1 against the shipped build (find_ab.py: fk, p1, fp), then the GPU tests of those flags.
#   bash shared/device/run.sh bash shared/device/iter12.sh [ab_s] [test_s]
set -u
echo "=== A/B ($(date +%T))"
FIND_AB=${FIND_AB:-fk,p1,fp} FIND_CELLS=${FIND_CELLS:-6,16,15,14,13,18} timeout ${1:-150} python3 shared/device/find_ab.py
echo "=== tests ($(date +%T))"
timeout ${2:-120} python3 -m pytest -q -x -m gpu -p no:cacheprovider --import-mode=importlib \
  -k "fastkey or pstore1" packages/topk-radix-filter/tests/test_conformance.py 2>&1 | tail -15
echo "=== done ($(date +%T))"
