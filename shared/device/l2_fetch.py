"""Dev only (H200): does the context's L2 fetch granularity change what the page table's gathers cost?

Each gathered page-table entry is 4 bytes of its own 32-byte sector. If a miss fills more than that sector
(cuCtxGetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY)), the gathers move more DRAM bytes than they use.
Usage (device): bash shared/device/run.sh python3 shared/device/l2_fetch.py [--ncu] [cells]
Times sgl_fused's page table and the same kernel with the identity transform (v2@page) at the default limit and
at each limit in LIMITS, alternating, every rotating input checked exact first.
"""

import ctypes
import os
import sys

import torch

from topk_core.bench.candidates import SglTransform, make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.run import _check
from topk_core.bench.timing import rotations, time_graph
from topk_core.testing import check_topk

LIMIT = 0x05  # CU_LIMIT_MAX_L2_FETCH_GRANULARITY
cuda = ctypes.CDLL("libcuda.so.1")


def get_limit() -> int:
    v = ctypes.c_size_t(0)
    rc = cuda.cuCtxGetLimit(ctypes.byref(v), LIMIT)
    return v.value if rc == 0 else -rc


def set_limit(b: int) -> int:
    return cuda.cuCtxSetLimit(LIMIT, ctypes.c_size_t(b))


def _one_request(shape, inputs):
    """The page table with every row in one request (``cu_seqlens_q = [0, rows]``): one table row of N entries
    (L2-resident), so the gathers hit L2 where the per-row tables' miss to DRAM."""
    from topk_core import sgl
    from topk_core.bench.candidates import Prepared

    dev = inputs.logits[0].device
    table = torch.arange(shape.n, dtype=torch.int32, device=dev)[None, :].contiguous()
    cu = torch.tensor([0, shape.rows], dtype=torch.int32, device=dev)
    results = {}

    def step(i):
        results[i] = sgl.fast_topk_transform_fused(inputs.logits[i], inputs.lengths[i], table, cu, shape.k,
                                                   backend="sgl_fused")

    return Prepared(step, lambda i: results[i])


def main():
    ncu = "--ncu" in sys.argv  # one call of each after the checks, inside an NVTX range "probe" (ncu --nvtx-include)
    sys.argv = [a for a in sys.argv if a != "--ncu"]
    cells = sys.argv[1:] or ["512x128K", "1024x64K", "128x128K", "128x32K"]
    limits = [int(x) for x in os.environ.get("LIMITS", "32,128").split(",")]
    torch.zeros(1, device="cuda")
    default = get_limit()
    print(f"default L2 fetch granularity: {default}")
    for b in limits:
        print(f"set {b}: rc {set_limit(b)}, now {get_limit()}")
    set_limit(default)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for label in cells:
            rows, n = label.split("x")
            shape = Shape(int(rows), int(n.rstrip("K")) * 1024, k=2048)
            inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
            count = len(inputs.logits)
            preps = {}
            for name, cand in [("page", SglTransform("sgl_fused", "page_table")),
                               ("v2@page", SglTransform("sgl_fused", "none", pick_as="page_table")),
                               ("page1", None)]:
                prep = cand.prepare(shape, inputs) if cand else _one_request(shape, inputs)
                for i in range(count):
                    prep.step(i)
                torch.cuda.synchronize()
                _check(shape, inputs, prep)
                for i in range(1, count):
                    check_topk(inputs.logits[i], inputs.seq_lens[i], shape.k, prep.result(i))
                preps[name] = prep
            if ncu:
                for name, prep in preps.items():
                    torch.cuda.synchronize()
                    torch.cuda.nvtx.range_push("probe")
                    prep.step(0)
                    torch.cuda.nvtx.range_pop()
                    torch.cuda.synchronize()
                    print(f"{label}: {name} profiled", flush=True)
                continue
            line = []
            for _round in range(2):
                for b in [default] + limits:
                    set_limit(b)
                    for name, prep in preps.items():
                        us = time_graph(prep.step, count, 20)
                        line.append(f"{name}@{b}={us:.1f}")
                    set_limit(default)
            print(f"{label}: " + " ".join(line), flush=True)
            del preps, inputs
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
