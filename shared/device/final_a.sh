#!/bin/bash
# First call of the final warm pair (carry .carry/flashinfer; Triton only, no CuTe DSL):
# sgl_fused's GPU tests, then memcheck on its kernels.
#   bash shared/device/run.sh bash shared/device/final_a.sh
set -u
timeout 240 python3 -m pytest -q -m gpu -p no:cacheprovider packages/topk-sgl-fused 2>&1 | tail -6
timeout 150 compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py sgl_fused \
  2>&1 | tail -12
