"""Dev: can the rows that miss radix's cluster wave run beside it, on the SMs the clusters leave free?

Usage (device): bash shared/device/run.sh python3 shared/device/fork_probe.py
At (8, 512, 32) 30 clusters of 8 fit the H200 at once (gpc_probe.cu), so 32x128K runs in two waves.
Here rows [0, WAVE) go to radix on the capturing stream and rows [WAVE, rows) to radix_filter on a
forked stream (fork and join recorded in the same graph), timed as `topk bench` does (graph replay
over rotating randn inputs, seq_lens uniform in [N/2, N]), every output checked exact first.
FORK_SIDE picks the side's radix_filter variant (plan name, or "plan" for its own pick).
"""

from __future__ import annotations

import os

import torch
from side_ab import each_cell, exact_then_time  # same folder

from topk_core import top_k_varlen
from topk_core.bench.grids import Shape
from topk_radix_filter import launch as rf_launch

K = 1024
WAVE = int(os.environ.get("FORK_WAVE", "30"))
SIDES = os.environ.get("FORK_SIDE", "plan,FEW_ROWS").split(",")
CELLS = [Shape(int(r), int(n) * K) for r, n in
         (c.split("x") for c in os.environ.get("FORK_CELLS", "32x128,31x128,30x128").split(","))]
_plan = rf_launch.plan


def run(shape: Shape, inputs, mode: str, side_variant: str, side: torch.cuda.Stream):
    outs = [torch.full((shape.rows, shape.k), -7, dtype=torch.int32, device="cuda") for _ in inputs.logits]
    wave = min(WAVE, shape.rows)

    def part(i, lo, hi, backend):
        top_k_varlen(inputs.logits[i][lo:hi], inputs.seq_lens[i][lo:hi], shape.k, out_indices=outs[i][lo:hi],
                     backend=backend)

    def step(i):
        if mode == "radix":
            part(i, 0, shape.rows, "radix")
        elif mode == "rf":
            part(i, 0, shape.rows, "radix_filter")
        elif mode == "wave":
            part(i, 0, wave, "radix")
        else:  # fork: side rows on radix_filter beside the wave
            cur = torch.cuda.current_stream()
            side.wait_stream(cur)
            if mode == "fork_side_first":
                with torch.cuda.stream(side):
                    part(i, wave, shape.rows, "radix_filter")
                part(i, 0, wave, "radix")
            else:
                part(i, 0, wave, "radix")
                with torch.cuda.stream(side):
                    part(i, wave, shape.rows, "radix_filter")
            cur.wait_stream(side)

    if side_variant != "plan":
        rf_launch.plan = lambda *a, **kw: rf_launch.PLANNED[side_variant]
    try:
        return exact_then_time(step, shape, inputs, outs, check=mode != "wave")
    finally:
        rf_launch.plan = _plan


def main():
    side = torch.cuda.Stream()
    for shape, inputs in each_cell(CELLS):
        res = []
        for _ in range(2):
            res += [f"radix {run(shape, inputs, 'radix', 'plan', side)}",
                    f"rf {run(shape, inputs, 'rf', 'plan', side)}",
                    f"wave{min(WAVE, shape.rows)} {run(shape, inputs, 'wave', 'plan', side)}"]
            if shape.rows > WAVE:
                for sv in SIDES:
                    for mode in ("fork", "fork_side_first"):
                        res.append(f"{mode}/{sv} {run(shape, inputs, mode, sv, side)}")
        print(f"{shape.label:>9} | " + " | ".join(res), flush=True)


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        main()
