#!/bin/bash
# test_longest_first on the GPU, one process per transform side by side (run one after another they do not fit a
# call: 58-121 s each), and optionally a fourth pytest beside them; logs $OUT/pytest-lf-<transform>.log and
# $OUT/pytest-extra.log. Usage: bash shared/device/lf_tests.sh SECONDS [PYTEST ARGS OF THE FOURTH]
set -u
s=$1; shift
W=packages/topk-sgl-fused/tests/test_warp.py
echo "=== GPU tests: test_longest_first, one process a transform ($(date +%T))"
for t in none page_table ragged; do
  timeout "$s" python3 -m pytest -q -p no:cacheprovider "$W::test_longest_first[$t]" > "$OUT/pytest-lf-$t.log" 2>&1 &
done
logs="lf-none lf-page_table lf-ragged"
if [ $# -gt 0 ]; then
  timeout "$s" python3 -m pytest -q -p no:cacheprovider "$@" > "$OUT/pytest-extra.log" 2>&1 &
  logs="$logs extra"
fi
wait
for t in $logs; do echo "--- $t"; tail -2 "$OUT/pytest-$t.log"; done
