"""Dev only: what ``topk_core.sgl``'s ``auto`` page table and ragged calls cost fused, composed with the Triton
transform pass, composed with the torch pass (before session 54), and as its model decides; ``auto:v2`` beside them.

Each variant is ``bench.candidates.SglTransform("auto", transform)`` with ``TOPK_SGL_COMPOSE`` set around every call
(so the CUDA graph captures that decision), timed and checked exactly by ``topk bench``'s runner (CUDA-graph replay
over rotating inputs, every input set checked before and after the timed replays).
    bash shared/device/run.sh python3 shared/device/compose_bench.py [GRID] [VARIANTS]   (results in $OUT)
Give TOPK_COMMIT=<hash> literally (the device copy's git is stale).
GRID: a ``topk bench`` grid name (default dsa); VARIANTS: comma-separated of fused, tpass, torch, model (default all).
"""

from __future__ import annotations

import json
import os
import sys
import time
from contextlib import contextmanager

import torch

import topk_core
from topk_core import registry, sgl
from topk_core.bench.candidates import Prepared, SglTransform
from topk_core.bench.grids import GRIDS
from topk_core.bench.report import table
from topk_core.bench.run import run_grid
from topk_core.bench.timing import copy_bandwidth_gbs
from topk_core.reference import apply_transform

MODES = {"fused": "never", "tpass": "always", "torch": "always", "model": "model"}


def _torch_compose(local, out, call):
    out.copy_(apply_transform(call, local.to(torch.int64)))


@contextmanager
def _mode(variant):
    before, real = os.environ.get("TOPK_SGL_COMPOSE"), sgl._compose
    os.environ["TOPK_SGL_COMPOSE"] = MODES[variant]
    if variant == "torch":
        sgl._compose = _torch_compose
    try:
        yield
    finally:
        sgl._compose = real
        if before is None:
            os.environ.pop("TOPK_SGL_COMPOSE")
        else:
            os.environ["TOPK_SGL_COMPOSE"] = before


class Variant(SglTransform):
    def __init__(self, transform, variant):
        super().__init__("auto", transform)
        self.variant = variant
        self.name = f"{self.name}[{variant}]"

    def prepare(self, shape, inputs):
        with _mode(self.variant):
            prepared = super().prepare(shape, inputs)
        if isinstance(prepared, str):
            return prepared

        def step(i):
            with _mode(self.variant):
                prepared.step(i)

        return Prepared(step, prepared.result)


def main():
    grid = sys.argv[1] if len(sys.argv) > 1 else "dsa"
    variants = sys.argv[2].split(",") if len(sys.argv) > 2 else list(MODES)
    t0 = time.time()
    cands = [SglTransform("auto", "none")] + [Variant(t, v) for t in ("page_table", "ragged") for v in variants]
    device = "cuda" if torch.cuda.is_available() else "cpu"  # CPU: a smoke run of this script only
    copy_gbs = copy_bandwidth_gbs() if device == "cuda" else None
    rows = run_grid(GRIDS[grid], cands, device, copy_gbs, replays=10)
    names = [c.name for c in cands]
    print(table(rows, names, lead=names[0]))
    out = os.environ.get("OUT")
    if out:
        versions = {name: e.version for name, e in registry.entries().items()}
        data = dict(gpu=torch.cuda.get_device_name() if device == "cuda" else "cpu", grid=grid, copy_gbs=copy_gbs,
                    torch=torch.__version__, topk_core=topk_core.__version__, commit=os.environ.get("TOPK_COMMIT"),
                    backends=versions, date=time.strftime("%F %H:%M"), command=" ".join(sys.argv),
                    cells=[dict(cell=r.shape.label, times=r.times, notes=r.notes) for r in rows])
        with open(os.path.join(out, f"compose-{grid}.json"), "w") as f:
            json.dump(data, f, indent=1)
    for r in rows:
        for name, note in r.notes.items():
            print("NOTE", r.shape.label, name, note)
    print(f"done in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
