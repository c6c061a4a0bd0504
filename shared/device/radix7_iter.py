"""Dev (session 7): radix's register kernel as shipped against the ``mbar`` variant (cluster
exchanges by st.async + mbarriers instead of cluster barriers), side by side in one process.

Usage (device): bash shared/device/run.sh python3 shared/device/radix7_iter.py [nostamps]
Timed as `topk bench` does (radix_sweep.time_radix: CUDA-graph replay over rotating randn inputs,
seq_lens uniform in [N/2, N], indices only), each configuration checked exact first, alternating
twice. An alternative whose flags equal one already timed on a cell is skipped. Then sub-phase
clocks (thread 0 of row 0 rank 0) of both on a few cells.
"""

from __future__ import annotations

import sys
import time

import torch
from radix_iter import SUB  # same folder
from radix_sweep import stamp_clocks, time_radix

from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations
from topk_radix import checks

K = 1024
#: name -> flags over checks.reg_variant's pick ("now" = as shipped).
#: rx: only the exit barrier's arrive relaxed; mbar: every exchange by st.async + mbarriers (and rx).
ALTS = {"now": {}, "rx": {"relaxed_exit": True}, "mbar": {"mbar": True},
        "mbar+gw": {"mbar": True, "gather": 8192, "warp_emit": True}}
CELLS = [Shape(1, 128 * K), Shape(1, 32 * K), Shape(8, 128 * K), Shape(32, 128 * K), Shape(8, 32 * K),
         Shape(1, 256 * K), Shape(1, 8 * K)]  # most telling first: a timeout cuts the last
STAMP_CELLS = [Shape(1, 128 * K), Shape(8, 128 * K)]


def variant(shape: Shape, alt: str) -> dict:
    geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
    v = {"mbar": False, "relaxed_exit": False, **checks.reg_variant(shape.rows, shape.dtype, geo, shape.next_n),
         **ALTS[alt]}
    if geo[0] == 1:  # no cluster: mbar, relaxed_exit and gather do not apply
        v["mbar"], v["relaxed_exit"], v["gather"] = False, False, 0
    return v


def alts_for(shape: Shape) -> list[str]:
    seen, out = [], []
    for alt in ALTS:
        v = variant(shape, alt)
        if v not in seen:
            seen.append(v)
            out.append(alt)
    return out


def sweep():
    for shape in CELLS:
        inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
        geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        alts = alts_for(shape)
        res = [f"{alt} {time_radix(shape, inputs, None, variant(shape, alt))}" for _ in range(2) for alt in alts]
        print(f"{shape.label:>9} {geo} | " + " | ".join(res), flush=True)
        del inputs
        torch.cuda.empty_cache()


def stamps():
    print("clock64 from CTA start, thread 0 of row 0 rank 0 (0: not reached; with mbar 'p0 bar' is warp 0's "
          "mbarrier wait, 'g remote' the gather's wait)", flush=True)
    for shape in STAMP_CELLS:
        geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        for alt in [a for a in alts_for(shape) if a in ("now", "mbar")]:
            s = stamp_clocks(shape, make_inputs(shape, 1, "cuda"), None, variant(shape, alt))
            print(f"{shape.label:>9} {geo} {alt}: " + ", ".join(f"{n} {int(s[0, j])}" for n, j in SUB.items()) +
                  f" | span {int(s[:, 7].max() - s[:, 0].min())} ns", flush=True)


if __name__ == "__main__":
    t0 = time.time()
    with torch.cuda.stream(torch.cuda.Stream()):  # graphs cannot be captured on the default stream
        sweep()
        if "nostamps" not in sys.argv:
            stamps()
    print(f"radix7_iter: {time.time() - t0:.0f} s", flush=True)
