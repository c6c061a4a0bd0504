#!/bin/bash
# Dev only, one device call (carry .carry/dsl): radix's GPU tests, then its register-kernel
# variants timed side by side and sub-phase clocks (radix_iter.py).
#   bash shared/device/run.sh bash shared/device/iter5b.sh
set -u
timeout 260 python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-radix 2>&1 | tail -6
timeout 200 python3 shared/device/radix_iter.py
