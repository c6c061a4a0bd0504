#!/bin/bash
# One device call: unpack what was carried, make the packages importable, then run
# the command given (default: the GPU test suite). Logs go under $OUT.
#   carry .carry/dsl        -> CuTe DSL backends can compile and run
#   carry .carry/flashinfer -> FlashInfer peer importable (or left from an earlier warm call)
# Example: bash shared/device/run.sh python3 -m topk_core bench --grid dsa
set -u
export PYTHONUNBUFFERED=1 OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
here=$(cd "$(dirname "$0")" && pwd)
if [ -s .carry/dsl/dsl-all.tar.xz ] || [ -d /tmp/dsl/nvidia_cutlass_dsl ]; then
  . "$here/use-cute-dsl.sh" && echo "run.sh: CuTe DSL ready"
fi
if [ -d .carry/flashinfer ] || [ -s /tmp/flashinfer/.stamp ]; then
  . "$here/use-flashinfer.sh" && echo "run.sh: FlashInfer ready"
fi
export PYTHONPATH=$(python3 "$here/devinstall.py" /tmp/topk-site)${PYTHONPATH:+:$PYTHONPATH}
export TOPK_CACHE_DIR=${TOPK_CACHE_DIR:-/tmp/topk-cache} TOPK_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if [ $# -eq 0 ]; then
  set -- python3 -m pytest -q -m gpu -p no:cacheprovider packages tests
fi
"$@" 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
