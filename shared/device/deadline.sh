# Sourced by device scripts that run several stages in one call: `left N` prints N, or fewer seconds when less than
# that is left of DEADLINE (default 540) since this file was sourced (at least 1), for `timeout $(left N) ...`.
START=$(date +%s)
left() { local l=$(( ${DEADLINE:-540} - ($(date +%s) - START) )); (( l < 1 )) && l=1; (( l < $1 )) && echo $l || echo $1; }
