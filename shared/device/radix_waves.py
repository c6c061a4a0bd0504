"""Dev: are the register kernel's phases bound by instruction fetch (cold code per SM)?

Usage (device): bash shared/device/run.sh python3 shared/device/radix_waves.py
Per-phase clock64 deltas of regs.py (launch.STAMPS) on grids of several waves: CTAs that
start after another CTA ended (on a warm SM) are compared with the first wave. If the later
waves' phases are much shorter, code fetch (not the work) sets the phase times.
"""

from __future__ import annotations

import torch
from radix_sweep import stamp_clocks  # same folder

from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape

K = 1024
GWX = {"gather": 8192, "warp_emit": True, "early": True}
CASES = [(Shape(1, 8 * K), (1, 1024, 8)), (Shape(1056, 8 * K), (1, 1024, 8)),
         (Shape(1, 32 * K), (8, 512, 8)), (Shape(264, 32 * K), (8, 512, 8)),
         (Shape(1, 128 * K), (16, 512, 16)), (Shape(64, 128 * K), (16, 512, 16))]
NAMES = ["keys", "p0", "p1", "p2", "emit", "exit"]


def run(shape: Shape, geo):
    s = stamp_clocks(shape, make_inputs(shape, 1, "cuda"), ("regs", *geo), GWX)
    start, end = s[:, 0], s[:, 7]
    first_end = int(end.min())
    groups = {"wave1": start < first_end, "later": start >= first_end}
    for name, sel in groups.items():
        if int(sel.sum()) == 0:
            continue
        t = s[sel][:, 1:7].clone()
        # Phase durations (a skipped pass stamps 0: carry the previous stamp over).
        for j in range(1, 6):
            t[:, j] = torch.where(t[:, j] == 0, t[:, j - 1], t[:, j])
        d = torch.cat([t[:, :1], t[:, 1:] - t[:, :-1]], 1).float().median(0).values
        print(f"{shape.label:>10} {geo} {name:>5} CTAs {int(sel.sum()):5}: " +
              " ".join(f"{n} {int(v):5}" for n, v in zip(NAMES, d)) +
              f" | span {int(end.max() - start.min())} ns", flush=True)


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        for shape, geo in CASES:
            run(shape, geo)
