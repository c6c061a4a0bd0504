#!/bin/bash
# Session 53, call 1 (carry .carry/dsl; the tree and .carry/dsl are over 64 MiB together, so move
# benchmarks/results/2026-11-* and 2026-12-0[1-4]* out first and put them back after):
# 1. radix_filter's rows-ahead L2 prefetch (``Variant.ahead``, ahead.py) against the shipped variant at 4096x8K
#    (SHORT_MANY, 6 CTAs per SM) and 1024x8K (SHORT_F32_WIDE, 4): find_ab.py, each config checked exact first;
# 2. memcheck of session 52's sanitize_lf52.py as the review left it (the kit's page-table inverse; never run).
#   bash shared/device/run.sh bash shared/device/check53.sh
# Ran as session 53's call 1 (an H100): every ah variant slower; they were removed after commit 4056665, so step 1
# now needs FIND_AB naming variants find_ab.py still has.
set -u
echo "=== find_ab ahead ($(date +%T))"
FIND_AB=${FIND_AB:?the ah variants were removed after commit 4056665} \
  FIND_CELLS=${FIND_CELLS:-6,15} timeout ${AB_S:-330} python3 shared/device/find_ab.py
echo "rc $?"
if [ "${MEM_S:-150}" -gt 0 ]; then
  echo "=== memcheck sanitize_lf52 ($(date +%T))"
  timeout ${MEM_S:-150} compute-sanitizer --tool memcheck --report-api-errors no python3 shared/dev/sanitize_lf52.py \
    > "$OUT/memcheck.log" 2>&1
  echo "rc $?"; grep -E "exact|ERROR SUMMARY|Error|Traceback" "$OUT/memcheck.log" | tail -8
fi
echo "=== done ($(date +%T))"
