"""Dev: three radix_filter calls on one shape (randn, seq_lens uniform in [N/2, N]) for ncu.

Usage (device): ncu ... --launch-skip 2 --launch-count 1 python3 shared/device/rf_profile.py ROWS N [BACKEND [DTYPE]]
The first two calls compile and warm up; the third is the profiled one. Checked exact.
RF_CAND=<n> (session 64): radix_filter's planned variant with an n-key candidate buffer; RF_CARVE=<p>: its
one-CTA-per-row launch names ``preferred_smem_carveout=p`` (fresh kernel caches: neither cache keys the carveout).
"""

import os
import sys
import tempfile
from dataclasses import replace

if os.environ.get("RF_CARVE"):  # before cutlass and topk_core read them
    os.environ["CUTE_DSL_DISABLE_FILE_CACHING"] = "1"
    os.environ["TOPK_CACHE_DIR"] = tempfile.mkdtemp(prefix="rf-carve-")

import torch

from topk_core import top_k_varlen
from topk_core.testing import check_topk, make_seq_lens

rows, n = int(sys.argv[1]), int(sys.argv[2])
backend = sys.argv[3] if len(sys.argv) > 3 else "radix_filter"
dtype = getattr(torch, sys.argv[4]) if len(sys.argv) > 4 else torch.float32
if os.environ.get("RF_CAND"):
    from topk_radix_filter import launch

    planned = launch.plan
    launch.plan = lambda *a, **kw: replace(planned(*a, **kw), cand=int(os.environ["RF_CAND"]))
if os.environ.get("RF_CARVE"):
    from carveout import carved_launch_rows

    from topk_radix_filter.sampled import SampledFilter

    SampledFilter._launch_rows = carved_launch_rows(int(os.environ["RF_CARVE"]))
x = torch.randn(rows, n, device="cuda").to(dtype)
lens = make_seq_lens(rows, n, seed=1, mode="uniform", device="cuda")
for _ in range(3):
    idx, _ = top_k_varlen(x, lens, 2048, backend=backend)
torch.cuda.synchronize()
check_topk(x, lens, 2048, idx)
print(f"rf_profile {rows}x{n} {backend}: exact")
