#!/bin/bash
# Session 37, call 4 (carry .carry/dsl): cstore1 (pass 1's selected columns staged per warp, stored warp-wide)
# against the shipped SHORT_MANY at 4096x8K and 2048x8K, then its GPU conformance tests.
set -u
here=$(cd "$(dirname "$0")" && pwd)
FIND_CELLS=6,16 FIND_AB=cs1 timeout 200 python3 "$here/find_ab.py"
timeout 300 python3 -m pytest -q -x -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py -k cstore1 2>&1 | tail -5
