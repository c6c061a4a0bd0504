#!/bin/bash
# Session 53, call 3 (no carry: Triton only): the 2-12-rows-per-SM page-table picks (all_cands, the table applied as
# the select emits) against the same picks without all_cands, with regions and defer_sure ("pickdsr[p]"), and
# session 37's "pickpsr" (no all_cands, the table streamed; its "none" is the no-all_cands v2 config session 37 saw
# at 159 against 166 µs at 1024x64K, never followed up). Two rounds, the second in reverse order:
#   bash shared/device/run.sh bash shared/device/check53b.sh
set -u
P=shared/device/sgl_plan.sh
V1=pick,pickdsr,pickdsrp,pickpsr
V2=pickpsr,pickdsrp,pickdsr,pick
SGL_JSON=sgl53-round1.json bash $P "round 1" sgl53-round1.log ${R1_S:-270} "512x128K:noold,$V1;1024x64K:noold,$V1"
SGL_JSON=sgl53-round2.json bash $P "round 2" sgl53-round2.log ${R2_S:-230} "1024x64K:noold,$V2;512x128K:noold,$V2"
echo "=== done ($(date +%T))"
