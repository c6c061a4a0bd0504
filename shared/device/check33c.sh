#!/bin/bash
# Session 33, carry .carry/dsl (the final checks follow in the same call): 128x32K's longest rows, whose guessed
# brackets held ~2180 candidates, more than the select's 2048-key chunk (every search step reloaded a second chunk):
# "pick" is now the guess's slack 1.5 and its pivot loaded beside the sample (``early_pivot``); "pickx<0|1>g<G>" that
# pivot off / on with slack G / 10 ("pickx0g25": as shipped in 0.22.0); the page table on v2's pick, streamed
# ("pickvps"), at 1024x64K; the stamps of "pick" at 128x32K; then check33e.sh (the GPU suite and the sanitizers):
#   bash shared/device/run.sh bash shared/device/check33c.sh
export SGL_PLAN=${SGL_PLAN:-"128x32K:noold,pick,pickx0g25,pickx1g25,pickx0g15,pickx1g20;\
64x32K:noold,pick,pickx0g25;150x32K:noold,pick,pickx0g25;128x64K:noold,pick,pickx0;128x128K:noold,pick,pickx0;\
128x32K:noold,pick,pickx0g25,pickx1g25;1024x64K:noold,pick,pickvps"}
echo "=== A/B ($(date +%T))"
timeout ${AB_S:-200} python3 shared/device/sgl10_bench.py ${AB_BUDGET:-170}
for pick in pick; do
  echo "=== SGL_STAMP_PICK=$pick ($(date +%T))"
  SGL_STAMP_PICK=$pick timeout ${STAMP_S:-60} python3 shared/device/sgl_stamps.py ${CELLS:-128x32768}
done
echo "=== A/B and stamps done ($(date +%T))"
bash shared/device/check33e.sh
