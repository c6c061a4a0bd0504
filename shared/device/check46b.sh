#!/bin/bash
# Session 46, second call (carry .carry/dsl; shared/device/base46.tar.xz, untracked, holds
# cute_radix.py and cute_common.py from before the change): the overflow path of cute_radix by 16-byte loads and one shared atomic per distinct bin and warp.
# 1. GPU tests that reach it (plateaus, ties, constant rows) on radix_filter, radix_cutlass and radix;
# 2. the plateau grid before (the base tree first on PYTHONPATH) and after, radix_filter / radix_cutlass / torch.topk;
# 3. memcheck of the sanitizer cases on radix_filter.
#   bash shared/device/run.sh bash shared/device/check46b.sh
# It ran (call 2) on the tree with shared/dev/patches/overflow-path-match-any.diff applied; main backed it out.
set -u
. shared/device/base_tree.sh shared/device/base46.tar.xz  # sets $base: the tree before the change
echo "=== tests ($(date +%T))"
timeout ${TEST_S:-150} python3 -m pytest -q -p no:cacheprovider -x \
  packages/topk-radix-filter/tests/test_conformance.py packages/topk-radix-cutlass/tests packages/topk-radix/tests \
  -k "plateau or int_ties or constant or k_edges or batch_shapes or tie" > "$OUT/pytest.log" 2>&1
echo "=== rc $?"; tail -4 "$OUT/pytest.log"
for kind in plateau MEMCHECK; do
  if [ $kind = MEMCHECK ]; then
    echo "=== memcheck radix_filter ($(date +%T))"
    timeout ${SAN_S:-60} compute-sanitizer --tool memcheck --report-api-errors no python3 shared/device/sanitize_cases.py \
      radix_filter 2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -8
    continue
  fi
  for side in base new; do
    echo "=== $kind bench, $side ($(date +%T))"
    pp=$PYTHONPATH; [ $side = base ] && pp=$base:$PYTHONPATH
    PYTHONPATH=$pp timeout ${BENCH_S:-85} python3 -m topk_core bench --grid dsa --kind $kind \
      --only radix_filter radix_cutlass torch.topk --replays 3 --out "$OUT" --tag $kind-46-$side 2>&1 \
      | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -18
  done
done
echo "=== done ($(date +%T))"
