#!/bin/bash
# Session 36 (after the tables): the page table of about one row per SM applied as the select emits (and, with regions
# per warp, as the sure regions are copied to the output), the first candidate chunk's entries gathered before the
# search ("pickemitp": no late pass over the k slots, no stream of the table), against the shipped late pass
# (WARP_FEW_LONG_PAGE, 128x128K +5.3% over its identity kernel in the committed run) and page stream
# (WARP_FEW_LARGE_PAGE); two rounds:
#   bash shared/device/run.sh bash shared/device/check36h.sh
V="noold,pick,pickemitp"
export SGL_PLAN=${SGL_PLAN:-"128x128K:$V;128x32K:$V;128x64K:$V;150x32K:$V;128x128K:$V;128x32K:$V"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-150} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-120} | grep -v ^RESULT
echo "=== done ($(date +%T))"
