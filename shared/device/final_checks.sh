#!/bin/bash
# Every GPU test, then compute-sanitizer on the representative cases (shared/device/sanitize_cases.py).
#   bash shared/device/run.sh bash shared/device/final_checks.sh
set -u
python3 -m pytest -q -m gpu -p no:cacheprovider packages tests 2>&1 | tail -15
compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py 2>&1 | tail -40
timeout 200 compute-sanitizer --tool racecheck python3 shared/device/sanitize_cases.py radix_cutlass 2>&1 | tail -15
