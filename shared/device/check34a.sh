#!/bin/bash
# Session 34, no carry: the page table applied as the select emits each slot ("pickemit[a]", "pickve"), with the
# first chunk's entries gathered before the select's search ("p": ``page_early``), against the shipped late pass /
# stream, beside the same kernel on the identity transform ("pickpc"); v2 two tiles ahead ("pickah2"); second rounds:
#   bash shared/device/run.sh bash shared/device/check34a.sh
export SGL_PLAN=${SGL_PLAN:-"512x128K:noold,pick,pickpc,pickemit,pickemitp,pickah2;\
256x128K:noold,pick,pickpc,pickemit,pickemitp;300x64K:noold,pick,pickemit,pickemitp,pickah2;\
1024x64K:noold,pick,pickpc,pickemita,pickemitap,pickve,pickah2;\
512x128K:noold,pick,pickpc,pickemit,pickemitp,pickah2;1024x64K:noold,pick,pickemitap,pickah2;\
256x128K:noold,pick,pickemitp"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-300} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-270}
echo "=== done ($(date +%T))"
