"""Dev: what the sampled bracket (regs_sampled.py) saw on a few rows, and how long each step took.

Usage (device): bash shared/device/run.sh python3 shared/device/radix_diag.py
Per cell: slot 15 of rank 0 of each row (done, candidates, sure keys, hi and lo bins), clock64
stamps of rank 0 of row 0 (keys ready, bracket known, counts published, end), then timings of
the shipped variant, the sampled one and the sampled one with a buffer too small to ever fit.
"""

from __future__ import annotations

import torch
from radix_sweep import stamp_clocks, time_radix  # same folder

from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations
from topk_radix import checks

K = 1024
SAMPLED = {"gather": 16384, "warp_emit": True, "early": True, "sample": 2048}


def main():
    for shape in (Shape(1, 32 * K), Shape(1, 128 * K), Shape(8, 128 * K), Shape(8, 32 * K)):
        geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        inputs = make_inputs(shape, 1, "cuda")
        s = stamp_clocks(shape, inputs, None, SAMPLED)
        lens = inputs.seq_lens[0].tolist()
        for r in range(shape.rows):
            v = int(s[r * geo[0], 15])
            print(f"{shape.label} {geo} row {r} len {lens[r]}: done {v & 1} cand {(v >> 1) & 0x7FFFFF} "
                  f"sure {(v >> 24) & 0xFFFF} hi {(v >> 40) & 0xFFF} lo {(v >> 52) & 0xFFF}", flush=True)
        print(f"  clocks rank 0 row 0: keys {int(s[0, 1])} bracket {int(s[0, 14])} published {int(s[0, 13])} "
              f"end {int(s[0, 5])} exit {int(s[0, 6])}; rank 1: published {int(s[1, 13])} end {int(s[1, 5])}",
              flush=True)
        inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
        now = checks.reg_variant(shape.rows, shape.dtype, geo, 1)
        res = [f"{name} {time_radix(shape, inputs, None, v)}" for name, v in
               (("now", now), ("s2k", SAMPLED), ("s2k-g512", {**SAMPLED, "gather": 512}))]
        print(f"  {shape.label}: " + " | ".join(res), flush=True)


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        main()
