#!/bin/bash
# Prepared in session 66 (carry .carry/dsl), on the committed tree, any card: racecheck of the 14 sgl_fused kit
# cases no racecheck has reached yet (13 names: 120x70000 selects two; sgl_fused NOTES.md, sessions 63-66), in
# chunks, each its own compute-sanitizer process and summary (`sanitize` in stages.sh: a cut chunk loses only
# itself; ~12 s a case on an H100).
#   TOPK_COMMIT=<hash> DEADLINE=300 bash shared/device/run.sh bash shared/device/check67.sh
set -u
. "$(dirname "$0")/stages.sh"
sgl_race_rest
echo "=== done ($(date +%T))"
