#!/bin/bash
# Session 37, call 1: the L2 fetch granularity and the page table's gathers (l2_fetch.py), then ncu's DRAM bytes of
# the page table's kernel and the same kernel with the identity transform at 512x128K and 128x128K.
set -u
timeout 200 python3 shared/device/l2_fetch.py 512x128K 1024x64K 128x128K 128x32K
for cell in 512x128K 128x128K; do
  timeout 100 ncu --clock-control none --nvtx --nvtx-include "probe/" -k regex:warp_kernel \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__sectors_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
    python3 shared/device/l2_fetch.py --ncu $cell 2>&1 | grep -E "profiled|warp_kernel|gpu__|dram__|lts__|l1tex__|ERROR" | cut -c1-160
done
