#!/bin/bash
# Dev only, one device call (carry .carry/dsl): find_bin A/B and stage costs of radix_filter,
# then the GPU tests of the two backends built on cute_radix (radix_filter, radix_cutlass).
#   bash shared/device/run.sh bash shared/device/iter6.sh [ab_seconds] [test_seconds]
set -u
timeout ${1:-200} python3 shared/device/find_ab.py
timeout ${2:-150} python3 -m pytest -q -m gpu -x -p no:cacheprovider packages/topk-radix-filter \
  packages/topk-radix-cutlass 2>&1 | tail -4
