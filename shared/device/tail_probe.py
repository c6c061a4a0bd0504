"""Dev (session 39): how much of a many-wave cell's time is its last wave? Two measurements, both timed like
``topk bench`` (CUDA-graph replay over rotating inputs, seq_lens uniform in [N/2, N], each run checked exact first):

1. **Row order.** The same cell with each input's seq_lens sorted longest first (``desc``) and shortest first
   (``asc``) beside the shipped random order (``rand``). Rows are iid randn, so sorting the lengths is sorting the
   rows. ``desc`` is the most a longest-first schedule could save (the kernel's last CTAs get the shortest rows),
   before paying for the sort; if ``rand - desc`` is under ~3 µs at 4096x8K, an in-graph sort cannot pay for its
   own launch and the idea is dead.
2. **Row sweep at 8K columns.** µs against rows (multiples of 792 = 132 SMs x SHORT_MANY's 6 CTAs, and 4096):
   the slope is the steady per-row cost and the intercept the launch, ramp and drain. Session 17's A/B (the shipped
   SHORT_F32_WIDE / SHORT_MANY column) gives, by hand, 1024 -> 2048 -> 4096 rows 23.2 -> 38.2 -> 66.7 µs: ~14 ns a
   row and ~9.5 µs of intercept, which is what 4096x8K's 3 µs to its floor target (64.2) would have to come out of.

Usage (device): bash shared/device/run.sh python3 shared/device/tail_probe.py [rounds]
CPU: python3 shared/device/tail_probe.py --cpu   (the reordering and the exactness check on small shapes)
"""

from __future__ import annotations

import sys

import torch

from topk_core.api import top_k_varlen
from topk_core.bench.candidates import Inputs, make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.testing.check import check_topk

K = 1024
ORDER_CELLS = (Shape(4096, 8 * K), Shape(2048, 8 * K), Shape(1024, 64 * K), Shape(512, 128 * K),
               Shape(512, 32 * K), Shape(128, 32 * K))
SWEEP_ROWS = (792, 1584, 2376, 3168, 3960, 4096, 4752)
BACKENDS = ("radix_filter", "sgl_fused")


def reordered(inputs: Inputs, order: str) -> Inputs:
    """``inputs`` with each seq_lens sorted (``desc``/``asc``) or as drawn (``rand``); next_n = 1, so the per-row
    lengths are the seq_lens."""
    if order == "rand":
        return inputs
    seq = [torch.sort(s, descending=order == "desc").values.contiguous() for s in inputs.seq_lens]
    return Inputs(inputs.logits, seq, [s.to(torch.int32) for s in seq])


def time_cell(shape: Shape, inputs: Inputs, backend: str, rounds: int) -> str:
    count = len(inputs.logits)
    outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device=inputs.logits[0].device) for _ in range(count)]

    def step(i):
        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=outs[i], backend=backend)

    for i in range(count):
        step(i)
    check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, outs[0])
    if inputs.logits[0].device.type != "cuda":
        return "exact"
    torch.cuda.synchronize()
    return "/".join(f"{time_graph(step, count, 20):.2f}" for _ in range(rounds))


def orders(rounds: int, device: str, cells=ORDER_CELLS, backends=BACKENDS) -> None:
    for shape in cells:
        inputs = make_inputs(shape, rotations(shape.nbytes) if device == "cuda" else 2, device)
        for backend in backends:
            line = [f"{shape.label:>10} {backend:>12}"]
            for order in ("rand", "desc", "asc"):
                line.append(f"{order} {time_cell(shape, reordered(inputs, order), backend, rounds)}")
            print(" | ".join(line), flush=True)
        del inputs
        if device == "cuda":
            torch.cuda.empty_cache()


def sweep(rounds: int) -> None:
    for backend in BACKENDS:
        line = [f"8K sweep {backend:>12}"]
        for rows in SWEEP_ROWS:
            shape = Shape(rows, 8 * K)
            inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
            line.append(f"{rows} {time_cell(shape, inputs, backend, rounds)}")
            torch.cuda.empty_cache()
        print(" | ".join(line), flush=True)


def main():
    if "--cpu" in sys.argv:
        orders(1, "cpu", cells=(Shape(40, 3000, k=64), Shape(9, 5000, k=512)), backends=("reference",))
        return
    rounds = int(next((a for a in sys.argv[1:] if a.isdigit()), "2"))
    with torch.cuda.stream(torch.cuda.Stream()):  # graphs are captured off the default stream
        orders(rounds, "cuda")
        sweep(rounds)


if __name__ == "__main__":
    main()
