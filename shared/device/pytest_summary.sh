#!/bin/bash
# Summarize a pytest -rA log: per-test outcomes, the totals line and the first assertion lines.
#   bash shared/device/pytest_summary.sh LOG
grep -E "^(PASSED|FAILED|ERROR)" "$1" | sed 's/ - .*//' | sort | uniq -c | sort -rn | head -40
grep -E "passed|failed" "$1" | tail -1
grep -E "^E " "$1" | head -8
