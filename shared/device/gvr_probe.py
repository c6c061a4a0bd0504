"""Dev (session 41): where does gvr's time go? Session 41's hinted decode grid (noise 0.05) had gvr slower than
sgl_fused everywhere but 1x1024K (17.4 µs against 26.9 for the best other), with 1x8K at 24.8 (1x32K 13.3) and
8x64K nn=2 at 134.3. On CPU (same statistics as the bench) every row lists ~2.4-2.9K candidates, under its cap,
except the nn=2 cell's second rows (36-46K: the bench's rows are independent, so row 2j+1 gets row 2j's hint,
unrelated) which go past the cap (16K) to the exact one-row path.

Variants (noise 0.05), timed like ``topk bench`` (CUDA-graph replay over rotating inputs, each checked exact first):
  gvr       the shipped config
  nohint    the same two-launch config without the hint (sampled bracket): is the split path itself slow there?
  capn      cap = the row (no exact fallback for a wide hint)
  c1024     chunks of 1024 columns (1x32K's), cap as shipped
  secant    the select by interpolation (``bisect``, ``sbits`` 0: what 32K+ rows take) on every row; the shipped
            config of rows under 32K ranks its candidates by 8-bit digits, and a hint's candidates span
            ``[lo, top]``, all four digits (added after session 41's call 5: its guess for 1x8K's extra 8.6 µs)
and sgl_fused (no hint) beside them.

Usage (device): bash shared/device/run.sh python3 shared/device/gvr_probe.py
CPU: TRITON_INTERPRET=1 python3 shared/device/gvr_probe.py --cpu   (exactness of every variant, small shapes)
"""

from __future__ import annotations

import sys
from dataclasses import replace

import torch

from topk_core.api import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.testing.check import check_topk

K = 1024
# The most telling first: a fresh machine compiles every variant, and the call may end before the last cells.
CELLS = (Shape(1, 8 * K), Shape(8, 64 * K, next_n=2), Shape(1, 32 * K), Shape(32, 128 * K), Shape(1, 1024 * K),
         Shape(8, 32 * K))
NOISES = (0.05,)
VARIANTS = ("gvr", "nohint", "capn", "c1024", "secant")


def patched(variant: str):
    """Install ``variant`` into topk_gvr.launch (returns the undo)."""
    from topk_gvr import launch as gl

    shipped_config, shipped_launch = gl.gvr_config, gl.launch

    def config(rows, n, k, sm):
        c = shipped_config(rows, n, k, sm)
        if variant == "capn":
            return replace(c, cap=max(c.cap, n))
        if variant == "c1024" and n <= 32 * K:
            return replace(c, chunk=1024, warps=4, r=1)
        if variant == "secant":
            return replace(c, bisect=True, sbits=0)
        return c

    def launch_nohint(call):
        from topk_sgl_fused import launch as sgl

        rows, n = call.logits.shape
        sgl.launch_split(call, gl.gvr_config(rows, n, call.top_k, sgl.sm_count(call.logits.device)))

    gl.gvr_config = config
    if variant == "nohint":
        gl.launch = launch_nohint

    def undo():
        gl.gvr_config, gl.launch = shipped_config, shipped_launch

    return undo


def time_cell(shape: Shape, inputs, backend: str, variant: str, device: str) -> str:
    count = len(inputs.logits)
    outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device=device) for _ in range(count)]
    hints = inputs.pre_idx if backend == "gvr" else [None] * count

    def step(i):
        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, pre_idx=hints[i], next_n=shape.next_n,
                     out_indices=outs[i], backend=backend)

    undo = patched(variant) if backend == "gvr" else (lambda: None)
    try:
        for i in range(count):
            step(i)
        for i in range(min(count, 2)):
            check_topk(inputs.logits[i], inputs.seq_lens[i], shape.k, outs[i], next_n=shape.next_n)
        if device != "cuda":
            return "exact"
        torch.cuda.synchronize()
        return f"{time_graph(step, count, 20):.2f}"
    except Exception as exc:  # a variant that cannot run says so and the probe goes on
        return f"{type(exc).__name__}: {str(exc)[:80]}"
    finally:
        undo()


def main():
    cpu = "--cpu" in sys.argv
    device = "cpu" if cpu else "cuda"
    cells = (Shape(1, 3000, k=64), Shape(4, 5000, k=128, next_n=2)) if cpu else CELLS
    for shape in cells:
        for noise in NOISES:
            inputs = make_inputs(shape, 2 if cpu else rotations(shape.nbytes), device, hint="previous",
                                 hint_noise=noise)
            line = [f"{shape.label:>11} noise {noise}"]
            line += [f"{v} {time_cell(shape, inputs, 'gvr', v, device)}" for v in VARIANTS]
            if noise == NOISES[0]:
                line.append(f"sgl_fused {time_cell(shape, inputs, 'sgl_fused', '', device)}")
            print(" | ".join(line), flush=True)
            del inputs
            if not cpu:
                torch.cuda.empty_cache()


if __name__ == "__main__":
    if "--cpu" in sys.argv:
        main()
    else:
        with torch.cuda.stream(torch.cuda.Stream()):  # graphs are captured off the default stream
            main()
