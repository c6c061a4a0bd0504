"""Dev: radix with rows past its cluster wave beside it (side.py) against without (launch.SIDE = False).

Usage (device): bash shared/device/run.sh python3 shared/device/side_ab.py
SIDE_CELLS="32x128,16x128" (rows x N/1024) replaces CELLS. Timed as `topk bench` does (graph replay over
rotating randn inputs, seq_lens uniform in [N/2, N]), each input checked exact first, two rounds.
"""

from __future__ import annotations

import os

import torch

from topk_core import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.testing import check_topk
from topk_radix import checks, launch, side

K = 1024
SHIPPED = side.SIDE_VARIANT
CELLS = [Shape(int(r), int(n) * K) for r, n in (c.split("x") for c in os.environ.get(
    "SIDE_CELLS", "32x128,31x128,30x128,33x68,32x64,16x128,8x128").split(","))]


#: SIDE_ALTS="DEFAULT,LIGHT": also time these radix_filter variants as the side kernel (side.SIDE_VARIANT).
ALTS = [a for a in os.environ.get("SIDE_ALTS", "").split(",") if a]


def exact_then_time(step, shape: Shape, inputs, outs: list, check: bool = True) -> str:
    """Run ``step(i)`` on every input, check the first and last exact, then time it (graph replay)."""
    try:
        for i in range(len(outs)):
            step(i)
        torch.cuda.synchronize()
        for i in (0, len(outs) - 1) if check else ():
            check_topk(inputs.logits[i], inputs.seq_lens[i], shape.k, outs[i])
        return f"{time_graph(step, len(outs), replays=10):7.2f}"
    except Exception as exc:  # keep going: one call should report every configuration
        return f"FAIL {type(exc).__name__}: {str(exc)[:200]}"


def each_cell(cells: list):
    """``(shape, inputs)`` per cell: rotating randn inputs for ``topk bench``'s timing, freed after the cell."""
    for shape in cells:
        inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
        yield shape, inputs
        del inputs
        torch.cuda.empty_cache()


def timed(shape: Shape, inputs, backend: str, use_side: bool | str) -> str:
    outs = [torch.full((shape.rows, shape.k), -7, dtype=torch.int32, device="cuda") for _ in inputs.logits]

    def step(i):
        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, out_indices=outs[i], backend=backend)

    launch.SIDE = bool(use_side)
    if isinstance(use_side, str):
        side.SIDE_VARIANT = use_side
    try:
        return exact_then_time(step, shape, inputs, outs)
    finally:
        launch.SIDE = True
        side.SIDE_VARIANT = SHIPPED


def main():
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    runs = (("side", "radix", True), ("one", "radix", False), ("rf", "radix_filter", True),
            *((f"side/{a}", "radix", a) for a in ALTS))
    for shape, inputs in each_cell(CELLS):
        geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        per_sm = checks.reg_ctas_per_sm(geo[1]) if geo else 0
        active = side.active_clusters(0, geo[0], per_sm) if geo else 0
        wave = checks.wave_split(shape.rows, 1, geo[0], per_sm, active, sms) if geo else shape.rows
        res = [f"{name} {timed(shape, inputs, backend, use)}" for _ in range(2) for name, backend, use in runs]
        print(f"{shape.label:>9} {geo} active {active} wave {wave} | " + " | ".join(res), flush=True)


if __name__ == "__main__":
    with torch.cuda.stream(torch.cuda.Stream()):
        main()
