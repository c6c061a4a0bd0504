#!/bin/bash
# Session 53, call 4 (no carry): where the 2-12-rows-per-SM all_cands picks lose to the same configs without
# all_cands (call 3: 1024x64K v2 170.0 -> 152.7 µs, page table 184.6 -> 179.7 with defer_sure and page_early;
# 512x128K slower both ways). "pickdsrp": its "none" is the page pick without all_cands (regions, packed
# candidates), its page table that with defer_sure and page_early. Two rounds, the second in reverse order:
#   bash shared/device/run.sh bash shared/device/check53c.sh
set -u
P=shared/device/sgl_plan.sh
C1=${CELLS:-"800x64K 1024x64K 1500x64K 1024x128K 700x128K 700x64K 512x64K 300x64K 256x128K"}
plan() { local out="" c; for c in $1; do out="$out;$c:noold,$2"; done; echo "${out#;}"; }
SGL_JSON=sgl53c-round1.json bash $P "round 1" sgl53c-round1.log ${R1_S:-280} "$(plan "$C1" pick,pickdsrp)"
C2=$(echo $C1 | tr ' ' '\n' | tac | tr '\n' ' ')
SGL_JSON=sgl53c-round2.json bash $P "round 2" sgl53c-round2.log ${R2_S:-240} "$(plan "$C2" pickdsrp,pick)"
echo "=== done ($(date +%T))"
