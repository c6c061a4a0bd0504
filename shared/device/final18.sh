#!/bin/bash
# Session 18, first call of the final warm pair (carry .carry/dsl), ~360 s: sgl_fused 0.8.0 (the resident path for at
# most one row per SM of 4K-8K columns, the 12-bit bracket for 8K rows) through its GPU suite, test_warp.py,
# test_split.py and test_resident.py (interpreter-marked, so run without -m, in parallel workers: their first builds
# are slow), the repo's strided-vector tests, and memcheck + racecheck of its
# sanitize_cases.py cases (new: 100x5000 bf16 and 8x8000 fp16, next_n 2, both resident). The second call, within 30 s:
#   TAG=session18 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/final18.sh [seconds]
# Now runs final19.sh, the one script of these checks (its test files are a superset of session 18's; the
# commit named in benchmarks/results/HISTORY-01-20.md holds this script as it ran).
set -u
exec bash "$(dirname "$0")/final19.sh" "${1:-330}"
