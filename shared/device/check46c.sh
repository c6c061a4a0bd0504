#!/bin/bash
# Session 46, third call (carry .carry/dsl; shared/device/base46.tar.xz as in check46b.sh): warp_count by ballot,
# shuffle and vote in place of match.any (which lost on short plateau rows in check46b). The plateau grid before and
# after (radix_filter / radix_cutlass / torch.topk; the randn cells were dropped for device time), then the plateau
# tests of radix_filter and radix_cutlass.
# Not run (session 46 had no device time left); main keeps the kernels from before. Next session, on CPU first:
#   git apply shared/dev/patches/overflow-path-ballot.diff
#   mkdir -p /tmp/b46/topk_core/kernels && for f in cute_radix cute_common; do
#     git show HEAD:packages/topk-core/src/topk_core/kernels/$f.py > /tmp/b46/topk_core/kernels/$f.py; done
#   tar cJf shared/device/base46.tar.xz -C /tmp/b46 .     (untracked; it travels with the tree)
# then (carry .carry/dsl; move untracked results out of the tree first: dsl + tree sit near the 64 MiB limit):
#   bash shared/device/run.sh bash shared/device/check46c.sh
set -u
. shared/device/base_tree.sh shared/device/base46.tar.xz  # sets $base: the tree before the change
for kind in plateau; do
  lim=0; [ $kind = randn ] && lim=6
  for side in base new; do
    echo "=== $kind bench, $side ($(date +%T))"
    pp=$PYTHONPATH; [ $side = base ] && pp=$base:$PYTHONPATH
    PYTHONPATH=$pp timeout ${BENCH_S:-70} python3 -m topk_core bench --grid dsa --kind $kind --limit $lim \
      --only radix_filter radix_cutlass torch.topk --replays 3 --out "$OUT" --tag $kind-46c-$side 2>&1 \
      | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -17
  done
done
echo "=== tests ($(date +%T))"
timeout ${TEST_S:-70} python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  packages/topk-radix-cutlass/tests -k "plateau" > "$OUT/pytest.log" 2>&1
echo "=== rc $?"; tail -4 "$OUT/pytest.log"
echo "=== done ($(date +%T))"
