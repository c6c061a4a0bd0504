#!/bin/bash
# Prepared in session 66 (carry .carry/dsl), on the committed tree, any card: racecheck of the 14 sgl_fused kit
# cases no racecheck has reached yet (13 names: 120x70000 selects two; sgl_fused NOTES.md, sessions 63-66), in
# chunks, each its own compute-sanitizer process and summary (`sanitize` in stages.sh: a cut chunk loses only
# itself; ~12 s a case on an H100).
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check67.sh
set -u
. "$(dirname "$0")/stages.sh"
sanitize sgl_fused "racecheck 1700x9000,130x24000,128x30000,400x70000,130x66000" \
  "racecheck 32x32768,16x65536,130x70000,8x100000" \
  "racecheck 120x70000,800x66000,300x33000,130x131072"
echo "=== done ($(date +%T))"
