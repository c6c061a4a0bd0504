#!/bin/bash
# Session 37, call 2: the page table with every row in one request (one L2-resident table row) beside the per-row
# tables, at the default L2 fetch granularity and at 32 bytes.
set -u
LIMITS=32 timeout 250 python3 shared/device/l2_fetch.py 512x128K 1024x64K 128x128K 4096x8K 128x32K
