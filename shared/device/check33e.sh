#!/bin/bash
# Session 33's final checks (carry .carry/dsl, which the bench call then finds): sgl_fused's GPU suite, then memcheck
# (the page-table cases, 300x70000 now on all_cands with the late pass, and the one-row-per-SM picks) and racecheck
# (the page-table cases) side by side, each under its own limit, after pytest (not beside it: session 32's lesson).
# Then, within 30 s:
#   bash shared/device/run.sh bash shared/device/check33e.sh
#   TAG=session33 GRIDS="dsa decode" bash shared/device/bench.sh bash shared/device/final_b.sh
bash shared/device/sgl_checks.sh
