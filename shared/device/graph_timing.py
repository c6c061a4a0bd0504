"""Dev: how much of a cell's µs is the host's graph launch? Each candidate timed as `topk bench` does (graph replay
over rotating inputs), plainly and with the GPU held busy by a sleep kernel while the host enqueues the start
event and the graph (so the events bracket GPU work only). Session 14 also found no clock-ramp effect (1x8K radix
4.78 cold, 4.79 after 200 ms of replays, 4.79 after 1 s idle).

Usage (device): bash shared/device/run.sh python3 shared/device/graph_timing.py
"""

from __future__ import annotations

import torch

from topk_core.api import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import HOLD_CYCLES, rotations, time_graph

K = 1024


def cell(shape: Shape, flashinfer) -> str:
    inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
    count = len(inputs.logits)
    outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device="cuda") for _ in range(count)]
    cands = {"auto": lambda i: top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=outs[i])}
    if flashinfer is not None:
        cands["fi.top_k"] = lambda i: flashinfer.top_k(inputs.logits[i], shape.k)
    line = [f"{shape.label:>9} x{count}"]
    for name, step in cands.items():
        for i in range(count):
            step(i)
        torch.cuda.synchronize()
        res = [time_graph(step, count, 10, hold) for _ in range(2) for hold in (0, HOLD_CYCLES)]
        line.append(f"{name} plain {res[0]:.2f}/{res[2]:.2f} held {res[1]:.2f}/{res[3]:.2f}")
    return " | ".join(line)


def main():
    try:
        import flashinfer
    except ImportError:
        flashinfer = None
    for shape in (Shape(1, 8 * K), Shape(1, 128 * K), Shape(8, 128 * K), Shape(32, 128 * K), Shape(4096, 8 * K)):
        print(cell(shape, flashinfer), flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        main()
