#!/bin/bash
# Functions for sgl_fused's pick checks (session 53; source it): `sgl_sanitize SET SHAPE` runs
# shared/dev/sanitize_lf52.py's set SET under memcheck (every shape) and racecheck (SHAPE only), one after the other
# (never beside each other);
# `sgl_ab TAG CELLS OLD` times the picks OLD against "pick" on CELLS (sgl10_bench.py cells, space-separated), two
# rounds, the second in reverse order (JSON $OUT/sgl<TAG>-round{1,2}.json). Knobs: MEM_S, RACE_S, R1_S, R2_S.
sgl_sanitize() {
  local S=shared/dev/sanitize_lf52.py
  echo "=== memcheck ($(date +%T))"
  SET=$1 timeout ${MEM_S:-150} compute-sanitizer --tool memcheck --report-api-errors no python3 $S \
    > "$OUT/memcheck$1.log" 2>&1
  echo "rc $?"; grep -E "exact|ERROR SUMMARY|Error|Traceback" "$OUT/memcheck$1.log" | tail -8
  echo "=== racecheck $2 ($(date +%T))"
  SET=$1 SHAPES=$2 timeout ${RACE_S:-120} compute-sanitizer --tool racecheck --report-api-errors no python3 $S \
    > "$OUT/racecheck$1.log" 2>&1
  echo "rc $?"; grep -E "exact|RACECHECK SUMMARY|ERROR SUMMARY|hazard|Traceback" "$OUT/racecheck$1.log" | tail -8
}

sgl_ab() {
  local P=shared/device/sgl_plan.sh c r1="" r2=""
  for c in $2; do r1="$r1;$c:noold,$3,pick"; r2="$r2;$c:noold,pick,$3"; done
  SGL_JSON=sgl$1-round1.json bash $P "round 1" sgl$1-round1.log ${R1_S:-150} "${r1#;}"
  SGL_JSON=sgl$1-round2.json bash $P "round 2" sgl$1-round2.log ${R2_S:-120} "${r2#;}"
}
