#!/bin/bash
# Dev only, one device call (carry .carry/dsl), ~390 s, session 16:
#  (a) GPU tests of the strided index vectors (core copies them; every backend) and radix's test_strided_seq_lens;
#  (b) sgl_fused: the page table prefetched into L2 before the stream ("pf"), beside the shipped page configs
#      (measured slower; the option was removed after commit b839370, so (b) runs only at that commit);
#  (c) radix_filter: SHORT_MANY's 12-bit first digit (find_ab.py fb12).
#   bash shared/device/run.sh bash shared/device/ab16.sh [tests_s] [sgl_s] [rf_s]
set -u
echo "=== strided-vector GPU tests ($(date +%T))"
timeout ${1:-150} python3 -m pytest -q -p no:cacheprovider tests/test_strided_vectors.py \
  packages/topk-radix/tests/test_conformance.py::test_strided_seq_lens 2>&1 | tail -8
echo "=== sgl_fused bench ($(date +%T))"
export SGL_JSON=sgl16.json
export SGL_PLAN=${SGL_PLAN:-"4096x8K:noold,w4,w4lateold,w4lateoldpf,w4latepf;\
1024x64K:noold,w8,w8m64,w4lateold,w4lateoldpf,w8lateoldpfm64;512x128K:noold,w8,w8m64,w8lateold,w8lateoldpf,w8lateoldpfm64;\
128x128K:noold,w16,w16lateold,w16lateoldpf;1x8K:noold,w8,w8late,w8latepf"}
timeout $(( ${2:-170} + 20 )) python3 shared/device/sgl10_bench.py ${2:-170} 2>&1 | grep -v "^RESULT"
echo "=== radix_filter A/B ($(date +%T))"
FIND_AB=fb12 FIND_CELLS=${FIND_CELLS:-6,16} timeout ${3:-60} python3 shared/device/find_ab.py
echo "=== done ($(date +%T))"
