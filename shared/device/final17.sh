#!/bin/bash
# Session 17, first call of the final warm pair (carry .carry/dsl), ~360 s: sgl_fused 0.7.0 (bracket samples by row
# length) through its GPU suite, test_warp.py and test_split.py (interpreter-marked, so run without -m, in parallel
# workers: their first builds are slow), the repo's strided-vector tests, and memcheck + racecheck of its
# sanitize_cases.py cases (new: 1700x9000 and 130x24000, and the 1700x9000 page table). The second call, within 30 s:
#   TAG=session17 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
#   bash shared/device/run.sh bash shared/device/final17.sh [seconds]
# Now runs final19.sh, the one script of these checks (its test files are a superset of session 17's; the
# commit named in benchmarks/results/HISTORY-01-20.md holds this script as it ran).
set -u
exec bash "$(dirname "$0")/final19.sh" "${1:-330}"
