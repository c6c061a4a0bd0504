#!/bin/bash
# One device call (carry .carry/dsl): compute-sanitizer racecheck (shared-memory hazards) on
# shared/device/sanitize_cases.py, per backend, each under its own time limit. The script
# prints "ok <case>" per finished case, so a cut run still shows how far it got.
#   bash shared/device/run.sh bash shared/device/racecheck.sh "radix:200 sgl_fused:80"
set -u
for spec in ${1:-radix:200 sgl_fused:80}; do
  b=${spec%%:*}; t=${spec##*:}
  echo "=== racecheck $b (limit ${t}s)"
  timeout $t compute-sanitizer --tool racecheck --racecheck-report all python3 shared/device/sanitize_cases.py $b \
    2>&1 | grep -v "^========= COMPUTE-SANITIZER$" | tail -14
done
