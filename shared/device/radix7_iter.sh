#!/bin/bash
# Dev only (radix, session 7; not run yet), one device call (carry .carry/dsl): the shipped register
# kernel against relaxed_exit and mbar side by side (radix7_iter.py), then the GPU tests of those
# flags (or the whole radix suite with "all"), then memcheck with mbar forced. Each step under its
# own timeout; 0 skips a step.
#   bash shared/device/run.sh bash shared/device/radix7_iter.sh [iter_s] [test_s] [memcheck_s] [pytest -k expr|all]
# STAMPS=nostamps skips the sub-phase clocks.
set -u
export TOPK_RADIX_DEV_VARIANTS=1  # test_conformance runs the off-by-default flags' tests
date -u +"start %H:%M:%S UTC"
[ "${1:-70}" != 0 ] && timeout ${1:-70} python3 shared/device/radix7_iter.py ${STAMPS:-}
if [ "${2:-100}" != 0 ]; then
  if [ "${4:-x}" = all ]; then
    timeout ${2:-100} python3 -m pytest -q -m gpu -x -p no:cacheprovider packages/topk-radix 2>&1 | tail -6
  else
    timeout ${2:-100} python3 -m pytest -v -m gpu -x -p no:cacheprovider packages/topk-radix \
      -k "${4:-mbar or relaxed_exit}" 2>&1 | grep -E "PASSED|FAILED|ERROR|passed|failed" | tail -40
  fi
fi
[ "${3:-60}" != 0 ] && timeout ${3:-60} compute-sanitizer --tool memcheck --report-api-errors no \
  python3 shared/device/radix7_sanitize.py 2>&1 | tail -12
date -u +"end %H:%M:%S UTC"
