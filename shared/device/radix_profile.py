"""Dev: a few eager calls of radix on one cell, for ncu (`shared/device/radix_ncu.sh`).

Usage: python3 shared/device/radix_profile.py ROWSxN [CALLS]   (ncu: shared/device/radix_ncu.sh)
"""

import sys

import torch

from topk_core import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape

if __name__ == "__main__":
    rows, n = (int(x) for x in sys.argv[1].split("x"))
    shape = Shape(rows, n)
    inputs = make_inputs(shape, 1, "cuda")
    for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 4):
        top_k_varlen(inputs.logits[0], inputs.seq_lens[0], shape.k, backend="radix")
    torch.cuda.synchronize()
