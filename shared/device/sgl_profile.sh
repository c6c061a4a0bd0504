#!/bin/bash
# Dev only, one device call: sgl_fused phase stamps, then ncu of the real kernel per cell.
#   bash shared/device/run.sh bash shared/device/sgl_profile.sh
set -u
python3 shared/device/sgl_profile.py 1x8192 128x32768 128x131072 4096x8192
for cell in 1x8192 128x131072 4096x8192; do
  echo "=== ncu $cell"
  timeout 120 ncu --clock-control none --kernel-name regex:sgl_topk --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats \
    python3 shared/device/sgl_profile.py --plain $cell 2>&1 | grep -v "^==PROF==" | tail -80
done
