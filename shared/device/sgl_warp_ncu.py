"""Dev only (H200, under ncu): a few sgl_fused calls on one cell (the launch's pick: the warp path where it
applies), so that ncu can profile the one kernel. Usage: ncu ... python3 shared/device/sgl_warp_ncu.py ROWS N [page]
SGL_RESIDENT=<sgl10_bench variant> (session 19) replaces ``launch.RESIDENT`` (e.g. r8sec)."""

import os
import sys

import torch

from topk_core import sgl
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape

if os.environ.get("SGL_RESIDENT"):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from sgl10_bench import variant

    from topk_sgl_fused import launch

    launch.RESIDENT = variant(os.environ["SGL_RESIDENT"])
rows, n = int(sys.argv[1]), int(sys.argv[2])
shape = Shape(rows, n)
inputs = make_inputs(shape, 2, "cuda")
table = torch.randint(0, 1 << 30, (rows, n), dtype=torch.int32, device="cuda")
for i in range(3):
    if "page" in sys.argv:
        sgl.fast_topk_transform_fused(inputs.logits[i % 2], inputs.lengths[i % 2], table, None, shape.k,
                                      backend="sgl_fused")
    else:
        sgl.fast_topk_v2(inputs.logits[i % 2], inputs.lengths[i % 2], shape.k, backend="sgl_fused")
torch.cuda.synchronize()
