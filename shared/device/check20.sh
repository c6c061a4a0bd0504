#!/bin/bash
# Session 20's last call (Triton only, ~130 s): sgl_fused with the two-launch filter's bracket by bisection through
# test_split.py (interpreter-marked tests, run on the GPU) and the package's GPU suite, side by side; no sanitizers.
# (Call 12 ran this as a script of its own; it is final19.sh with these settings.)
#   bash shared/device/run.sh bash shared/device/check20.sh [seconds]
set -u
SAN_TOOLS= SGL_FILES=packages/topk-sgl-fused/tests/test_split.py exec bash "$(dirname "$0")/final19.sh" "${1:-120}"
