#!/bin/bash
# The overflow path's A/B (carry .carry/dsl): the plateau grid before and after (radix_filter / radix_cutlass /
# torch.topk), then the randn grid's first 6 cells before and after (KINDS picks; the main path's source is
# unchanged, its SASS not quite), then the plateau tests of radix_filter and radix_cutlass (among them
# test_plateau_fallback_stops_only_when_every_slot_is_taken, session 47: keys just above a plateau at a row's end).
# Written in session 46 for the ballot form; session 47 adds the gather's exit once every slot is taken
# (`overflow-path-gather-exit.diff`, on top of the ballot form). Ran in session 48 (calls 3-4, an H100; the plateau
# benches need BENCH_S=140 on a cold cache) and both patches landed as topk-core 0.2.6.
# To reuse it for another overflow-path change: the base archive from the commit to compare against:
#   mkdir -p /tmp/b46/topk_core/kernels && for f in cute_radix cute_common; do
#     git show <base commit>:packages/topk-core/src/topk_core/kernels/$f.py > /tmp/b46/topk_core/kernels/$f.py; done
#   tar cJf shared/device/base46.tar.xz -C /tmp/b46 .     (untracked; it travels with the tree)
# then move benchmarks/results/2026-11-2* out of the tree (the tree and .carry/dsl are over 64 MiB together; put
# them back after) and:
#   KINDS="plateau randn" BENCH_S=140 TEST_S=60 bash shared/device/run.sh bash shared/device/check46c.sh
#   (~10 min cold; in session 48 the plateau, overflow and tie tests of three packages, 391, took 353 s)
# Knobs: ONLY (the bench's --only), RANDN_CELLS (0: the whole randn grid), TESTK (pytest -k).
set -u
. shared/device/base_tree.sh shared/device/base46.tar.xz  # sets $base: the tree before the change
for kind in ${KINDS:-plateau randn}; do
  lim=0; [ $kind = randn ] && lim=${RANDN_CELLS:-6}
  for side in base new; do
    echo "=== $kind bench, $side ($(date +%T))"
    pp=$PYTHONPATH; [ $side = base ] && pp=$base:$PYTHONPATH
    PYTHONPATH=$pp timeout ${BENCH_S:-70} python3 -m topk_core bench --grid dsa --kind $kind --limit $lim \
      --only ${ONLY:-radix_filter radix_cutlass torch.topk} --replays 3 --out "$OUT" --tag $kind-46c-$side 2>&1 \
      | tr '\r' '\n' | grep -v "topk bench: *[0-9]*%" | tail -17
  done
done
echo "=== tests ($(date +%T))"
timeout ${TEST_S:-70} python3 -m pytest -q -p no:cacheprovider packages/topk-radix-filter/tests/test_conformance.py \
  packages/topk-radix-cutlass/tests -k "${TESTK:-plateau}" > "$OUT/pytest.log" 2>&1
echo "=== rc $?"; tail -4 "$OUT/pytest.log"
echo "=== done ($(date +%T))"
