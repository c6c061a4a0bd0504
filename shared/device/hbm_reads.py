"""Dev: one radix_cutlass call per shape, for ncu to count DRAM bytes read against the logits' size.

Usage (device), one shape per run so each profile is one launch:
  ncu --clock-control none -k regex:kernel_cutlass --launch-skip 1 --launch-count 1 \
      --metrics dram__bytes_read.sum,gpu__time_duration.sum python3 shared/device/hbm_reads.py 4096 8192
The first call compiles and warms up (skipped); the second is profiled. Prints the logits' bytes.
"""

import sys

import torch

from topk_core import top_k_varlen
from topk_core.testing import check_topk, make_seq_lens

rows, n = int(sys.argv[1]), int(sys.argv[2])
k = int(sys.argv[3]) if len(sys.argv) > 3 else 2048
x = torch.randn(rows, n, device="cuda")
lens = make_seq_lens(rows, n, seed=1, mode="uniform", device="cuda")
for _ in range(2):
    idx, _ = top_k_varlen(x, lens, k, backend="radix_cutlass")
torch.cuda.synchronize()
check_topk(x, lens, k, idx)
valid = int(torch.clamp(lens, 0, n).sum())
print(f"hbm_reads {rows}x{n} k={k}: logits {x.numel() * 4} bytes, valid columns {valid * 4} bytes")
