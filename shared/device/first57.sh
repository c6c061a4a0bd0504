#!/bin/bash
# Session 57, call 1 (carry .carry/dsl): on an H200 the committed dsa grid with the SGL transforms
# (h200_dsa55.sh), then the 1x8K chain probe (chain57.py); on any other card the probe only.
#   TOPK_COMMIT=<hash> TAG=session57 bash shared/device/run.sh bash shared/device/first57.sh
set -u
here=$(dirname "$0")
. "$here/card.sh"
if is_h200; then
  timeout 380 bash "$here/h200_dsa55.sh"
fi
timeout 150 python3 "$here/chain57.py"
