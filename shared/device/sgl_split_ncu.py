"""Dev only (H200, under ncu): a few fast_topk_v2 calls on one cell, so that ncu times the two-launch path's
filter and select kernels apart. Usage: ncu ... python3 shared/device/sgl_split_ncu.py ROWS N [bisect]"""

import sys
from dataclasses import replace

import torch

from topk_core import sgl
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_sgl_fused import launch

rows, n = int(sys.argv[1]), int(sys.argv[2])
launch.WARP = False
if "bisect" in sys.argv:
    orig = launch.pick_split
    launch.pick_split = lambda *a: replace(orig(*a), bisect=True)
shape = Shape(rows, n)
inputs = make_inputs(shape, 2, "cuda")
for i in range(3):
    sgl.fast_topk_v2(inputs.logits[i % 2], inputs.lengths[i % 2], shape.k, backend="sgl_fused")
torch.cuda.synchronize()
