"""Dev: time radix_filter's variants (sampled filter vs histogram design) next to radix_cutlass.

Every configuration is checked exact (check_topk) on its first input before it is timed.
Usage (device): bash shared/device/run.sh python3 shared/device/tune_filter.py [quick]
"""

from __future__ import annotations

import sys
import time

import torch

from topk_core import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.protocol import Call
from topk_core.testing import check_topk
from topk_radix_filter import launch as rf

K = 1024
CELLS = [Shape(32, 32 * K), Shape(32, 128 * K), Shape(128, 32 * K), Shape(128, 128 * K), Shape(512, 32 * K),
         Shape(512, 128 * K), Shape(4096, 8 * K), Shape(1024, 64 * K), Shape(128, 128 * K, dtype="bfloat16"),
         Shape(128, 128 * K, k=512)]
VARIANTS = {"plan": None, "s1024t": rf.DEFAULT, "s512t": rf.MANY_ROWS, "u8": rf.Variant(unroll=8),
            "u8s512t": rf.Variant(unroll=8, threads=512), "light": rf.LIGHT}
if len(sys.argv) > 1 and sys.argv[1] == "quick":
    VARIANTS = {"plan": None}


def timed(shape: Shape, inputs, outs, run) -> float:
    for i in range(len(outs)):
        run(i)
    torch.cuda.synchronize()
    check_topk(inputs.logits[0], inputs.seq_lens[0], shape.k, outs[0])
    return time_graph(run, len(outs), replays=10)


def one_shape(shape: Shape, dev) -> str:
    count = rotations(shape.nbytes)
    inputs = make_inputs(shape, count, dev)
    outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device=dev) for _ in range(count)]
    line = [f"{shape.label:>16}"]

    def cutlass_step(i):
        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=outs[i], backend="radix_cutlass")

    line.append(f"radix_cutlass {timed(shape, inputs, outs, cutlass_step):7.1f}")
    for name, variant in VARIANTS.items():
        t0 = time.perf_counter()

        def step(i, variant=variant):
            rf.launch(Call(logits=inputs.logits[i], seq_lens=inputs.seq_lens[i], top_k=shape.k, indices=outs[i]),
                      variant)

        try:
            line.append(f"{name} {timed(shape, inputs, outs, step):7.1f}")
        except Exception as exc:  # report and go on: one broken variant must not hide the rest
            line.append(f"{name} FAILED {type(exc).__name__}: {str(exc)[:200]}")
        if time.perf_counter() - t0 > 20:
            line.append("(slow)")
    return " | ".join(line)


def main() -> None:
    dev = torch.device("cuda")
    for shape in CELLS:
        print(one_shape(shape, dev), flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        main()
