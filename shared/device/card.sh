# Sourced by device scripts that run only on one card: `is_h200` succeeds where the first GPU is an H200
# (ANY_CARD=1: anywhere).
is_h200() { [ "${ANY_CARD:-0}" = 1 ] || nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -q H200; }
