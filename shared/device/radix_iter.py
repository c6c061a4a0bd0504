"""Dev: radix's register kernel, the shipped variant against alternatives, then sub-phase clocks.

Usage (device): bash shared/device/run.sh python3 shared/device/radix_iter.py
RADIX_ALTS="name:flag=value,...;..." replaces ALTS ("now" is always first); STAMPS=1 adds the clocks;
RADIX_CELLS="1x8,1x32,8x128,..." (rows x N/1024, in that order) replaces CELLS, RADIX_STAMP_CELLS
STAMP_CELLS; SWEEP=0 skips the timings; RADIX_GEOS times forced geometries (geo_sweep).
Timed as `topk bench` does (CUDA-graph replay over rotating randn inputs, seq_lens uniform in
[N/2, N], indices only), each checked exact first, alternating twice in one process.
ALTS maps a name to changes of checks.reg_variant's flags (launch.REG_VARIANT).
"""

from __future__ import annotations

import os
import time

import torch
from radix_sweep import stamp_clocks, time_radix  # same folder

from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations
from topk_radix import checks, regs

K = 1024
ALTS = {"now": {}, "no-gather": {"gather": 0}}  # name -> flags over checks.reg_variant's pick
if os.environ.get("RADIX_ALTS"):
    ALTS = {"now": {}}
    for spec in os.environ["RADIX_ALTS"].split(";"):
        name, _, flags = spec.partition(":")
        ALTS[name] = {f: int(v) for f, v in (kv.split("=") for kv in flags.split(",") if kv)}
CELLS = [Shape(1, 8 * K), Shape(1, 32 * K), Shape(1, 128 * K), Shape(8, 32 * K), Shape(8, 128 * K),
         Shape(32, 128 * K), Shape(32, 32 * K), Shape(1, 256 * K), Shape(128, 32 * K)]


def _cells(spec: str) -> list:
    """``1x8,8x128`` (rows x N/1024) -> [Shape(1, 8K), Shape(8, 128K)]."""
    return [Shape(int(r), int(n) * K) for r, n in (c.split("x") for c in spec.split(","))]


if os.environ.get("RADIX_CELLS"):
    CELLS = _cells(os.environ["RADIX_CELLS"])
STAMP_CELLS = [Shape(1, 8 * K), Shape(1, 32 * K), Shape(1, 128 * K), Shape(8, 128 * K)]
if os.environ.get("RADIX_STAMP_CELLS"):
    STAMP_CELLS = _cells(os.environ["RADIX_STAMP_CELLS"])
SUB = {"keys": 1, "p0 count": regs.ST_P0_COUNT, "p0 bar": regs.ST_P0_BAR, "p0 find": regs.ST_P0_FIND, "p0": 2,
       "g local": regs.ST_G_LOCAL, "g remote": regs.ST_G_REMOTE, "p1 count": regs.ST_P1_COUNT, "p1": 3, "p2": 4,
       "emit offs": regs.ST_EMIT_OFFS, "emit": 5, "exit": 6}


def variant(shape: Shape, alt: str) -> dict:
    geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
    return {**checks.reg_variant(shape.rows, shape.dtype, geo, shape.next_n), **ALTS[alt]}


#: RADIX_GEOS="1x8:1,512,16;1x128:8,1024,16": extra (cell, forced geometry) timings, each with
#: checks.reg_variant's flags for that geometry plus the flags of RADIX_GEO_FLAGS ("spare=1,...").
GEOS = []
for spec in filter(None, os.environ.get("RADIX_GEOS", "").split(";")):
    cell, _, geo = spec.partition(":")
    GEOS.append((_cells(cell)[0], tuple(int(x) for x in geo.split(","))))
GEO_FLAGS = {f: int(v) for f, v in (kv.split("=") for kv in os.environ.get("RADIX_GEO_FLAGS", "").split(",") if kv)}


def geo_sweep():
    for shape, geo in GEOS:
        inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
        flags = {**checks.reg_variant(shape.rows, shape.dtype, geo, shape.next_n), **GEO_FLAGS}
        now = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        res = [f"{name} {time_radix(shape, inputs, force, variant(shape, 'now') if force is None else flags)}"
               for _ in range(2) for name, force in ((f"now{now}", None), (f"{geo}", ("regs", *geo)))]
        print(f"{shape.label:>9} | " + " | ".join(res), flush=True)
        del inputs
        torch.cuda.empty_cache()


def sweep():
    for shape in CELLS:
        inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
        geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        res = [f"{alt} {time_radix(shape, inputs, None, variant(shape, alt))}" for _ in range(2) for alt in ALTS]
        print(f"{shape.label:>9} {geo} | " + " | ".join(res), flush=True)
        del inputs
        torch.cuda.empty_cache()


def stamps():
    print("\nclock64 from CTA start, thread 0 of row 0 rank 0 (0: not reached)", flush=True)
    for shape, alt in [(shape, alt) for shape in STAMP_CELLS for alt in ALTS]:
        geo = checks.reg_geometry(shape.rows, shape.n, shape.dtype)
        s = stamp_clocks(shape, make_inputs(shape, 1, "cuda"), None, variant(shape, alt))
        print(f"{shape.label:>9} {geo} {alt}: " + ", ".join(f"{n} {int(s[0, j])}" for n, j in SUB.items()) +
              f" | span {int(s[:, 7].max() - s[:, 0].min())} ns", flush=True)


if __name__ == "__main__":
    t0 = time.time()
    with torch.cuda.stream(torch.cuda.Stream()):
        if os.environ.get("STAMPS", "1") == "1":
            stamps()
        if os.environ.get("SWEEP", "1") == "1":
            sweep()
        if GEOS:
            geo_sweep()
    print(f"radix_iter: {time.time() - t0:.0f} s", flush=True)
