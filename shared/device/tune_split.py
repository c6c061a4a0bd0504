"""Dev: time radix_cutlass's split path against its one-CTA-per-row path, per chunk count and plan.

Every configuration is checked exact (check_topk) on its first input before it is timed.
Usage (device): bash shared/device/run.sh python3 shared/device/tune_split.py [quick]
"""

from __future__ import annotations

import sys
import time

import torch

from topk_core import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.testing import check_topk
from topk_radix_cutlass import launch

K = 1024
CELLS = [Shape(1, 8 * K), Shape(1, 32 * K), Shape(1, 128 * K), Shape(8, 32 * K), Shape(8, 128 * K),
         Shape(32, 32 * K), Shape(32, 128 * K), Shape(128, 32 * K), Shape(128, 128 * K), Shape(1, 256 * K),
         Shape(1, 1024 * K), Shape(64, 128 * K)]
CHUNK_PLANS = [(1024, 11), (512, 11), (1024, 13)]
MERGE_PLANS = [(1024, 13), (1024, 11), (512, 11)]
QUICK = len(sys.argv) > 1 and sys.argv[1] == "quick"  # the launcher's plans, chunk counts near its pick
if QUICK:
    CHUNK_PLANS, MERGE_PLANS = [launch.CHUNK_PLAN], [launch.MERGE_PLAN]
real_plan = launch.split_plan


def timed(shape: Shape, inputs, outs, lb: bool) -> float:
    def step(i):
        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=outs[i], backend="radix_cutlass",
                     load_balance=lb)

    for i in range(len(outs)):
        step(i)
    torch.cuda.synchronize()
    check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, outs[0])
    return time_graph(step, len(outs), replays=10)


def main() -> None:
    dev = torch.device("cuda")
    t0 = time.perf_counter()
    for cp in CHUNK_PLANS:
        for mp in MERGE_PLANS:
            launch.CHUNK_PLAN, launch.MERGE_PLAN = cp, mp
            launch.compiled_split("float32", False, True, "sm_90")
    print(f"compiled {len(CHUNK_PLANS) * len(MERGE_PLANS)} split builds in {time.perf_counter() - t0:.1f} s")
    for shape in CELLS:
        count = rotations(shape.nbytes)
        inputs = make_inputs(shape, count, dev)
        outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device=dev) for _ in range(count)]
        base = timed(shape, inputs, outs, False)
        line = [f"{shape.label:>10} plan={real_plan(shape.rows, shape.n, shape.k)} one-cta {base:7.1f}"]
        best = (base, "one-cta")
        for chunks in (2, 4, 8, 16, 32):
            if shape.rows * chunks > 512 or chunks * 2048 > shape.n:
                continue
            if QUICK and chunks not in (real_plan(shape.rows, shape.n, shape.k)[0], 2 * real_plan(shape.rows, shape.n,
                                                                                               shape.k)[0]):
                continue
            width = (shape.n + chunks * 8 - 1) // (chunks * 8) * 8
            launch.split_plan = lambda *a, c=chunks, w=width: (c, w)
            for cp in CHUNK_PLANS:
                for mp in MERGE_PLANS:
                    launch.CHUNK_PLAN, launch.MERGE_PLAN = cp, mp
                    us = timed(shape, inputs, outs, True)
                    tag = f"S{chunks} c{cp[0]}/{cp[1]} m{mp[0]}/{mp[1]}"
                    line.append(f"{tag} {us:.1f}")
                    best = min(best, (us, tag))
            launch.split_plan = real_plan
        print(" | ".join(line), flush=True)
        print(f"{'':>10} best: {best[1]} {best[0]:.1f} us", flush=True)
        del inputs, outs
        torch.cuda.empty_cache()


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        main()
