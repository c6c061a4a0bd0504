"""Dev: does the GPU's clock ramp show in a cell's time? 1x8K (radix, torch.topk) timed as `topk bench` does,
right after the eager pass (cold), after 200 ms of back-to-back replays (warm), and after 1 s idle.

Usage (device): bash shared/device/run.sh python3 shared/device/clock_warm.py
"""

from __future__ import annotations

import time

import torch

from topk_core.api import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph


def main():
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for shape in (Shape(1, 8192), Shape(1, 131072)):
            inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
            count = len(inputs.logits)
            outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device="cuda") for _ in range(count)]
            for backend in ("radix", "torch"):
                def step(i, backend=backend, inputs=inputs, shape=shape, outs=outs):
                    if backend == "torch":
                        torch.topk(inputs.logits[i], shape.k, dim=-1)
                    else:
                        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=outs[i],
                                     backend=backend)
                for i in range(count):
                    step(i)
                torch.cuda.synchronize()
                time.sleep(1.0)
                cold = time_graph(step, count)
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph, stream=stream):
                    for i in range(count):
                        step(i)
                t0 = time.perf_counter()
                while time.perf_counter() - t0 < 0.2:
                    graph.replay()
                torch.cuda.synchronize()
                warm = time_graph(step, count)
                warm2 = time_graph(step, count)
                time.sleep(1.0)
                idle = time_graph(step, count)
                print(f"{shape.label:>8} {backend:>6}: cold {cold:6.2f} | warm {warm:6.2f} {warm2:6.2f} | "
                      f"after 1 s idle {idle:6.2f} us", flush=True)


if __name__ == "__main__":
    main()
