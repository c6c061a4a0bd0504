#!/bin/bash
# Session 32, no carry: where a row's cycles go (shared/device/sgl_stamps.py, now with the candidate select's parts
# and the programs sent to the exact path) in the shipped picks and in "pickallc" (``WarpConfig.all_cands``):
#   bash shared/device/run.sh bash shared/device/check32c.sh
for pick in pick pickallc; do
  echo "=== SGL_STAMP_PICK=$pick ($(date +%T))"
  SGL_STAMP_PICK=$pick timeout ${STAMP_S:-120} python3 shared/device/sgl_stamps.py ${CELLS:-128x32768 128x131072 \
    128x32768:page 512x131072}
done
echo "=== done ($(date +%T))"
