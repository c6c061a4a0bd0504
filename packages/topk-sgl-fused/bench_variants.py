"""Dev only (H200): time launch configs of the fast path on the issue's cells.

Each (cell, config, transform) runs through ``topk_core.sgl`` with ``pick_config`` replaced,
is checked exact against the reference on its first input, then timed like ``topk bench``
(CUDA-graph replay over rotating inputs). Prints one line per timing and a JSON
dump at the end (also written to ``$OUT/variants.json`` when OUT is set).
Usage: python3 packages/topk-sgl-fused/bench_variants.py [budget_seconds]   (VARIANTS_ONLY_PICK=1: pick only)
"""

import json
import os
import sys
import time
from dataclasses import replace

import torch

from topk_core.bench.candidates import SglTransform, make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.run import _check
from topk_core.bench.timing import rotations, time_graph
from topk_sgl_fused import launch
from topk_sgl_fused.launch import Config

K = 1024
V = {
    "pick": None,  # what pick_config chooses (timed first, transform on and off, on every cell)
    "S8": Config(2048, 8, 1, False, maxnreg=128, fast=True, sample=512, cblock=1024, fast_block=4096),
    "M8x2": Config(2048, 8, 2, False, maxnreg=128, fast=True, sample=512, cblock=1024, fast_block=4096),
    "M16": Config(4096, 16, 1, False, fast=True, sample=512, cblock=1024, fast_block=8192),
    "L8x2": Config(2048, 8, 2, True, maxnreg=128, fast=True, sample=1024, cblock=2048, fast_block=4096),
    "L4x4": Config(1024, 4, 4, True, maxnreg=128, fast=True, sample=1024, cblock=1024, fast_block=2048),
    "plain": "plain",  # pick_config's choice with the fast path off (the first version)
    # Two-launch path: pick_split's choice with fields replaced.
    "T8K": ("split", dict(chunk=8192, warps=8, r=4)),  # one-tile chunks for long rows
    "S1K": ("split", dict(sample=1024)),
    "W8": ("split", dict(select_warps=8)),
    "C1K": ("split", dict(cblock=1024)),
    "K16": ("split", dict(chunk=16384)),  # more, shorter chunks on long rows with many rows
}
SPLIT_ALTERNATIVES = {"4096x8K": ["W8", "C1K"], "1024x64K": ["K16"], "512x128K": ["K16"], "128x32K": ["W8"]}
CELLS = [  # most important first: a spent budget cuts the tail
    Shape(4096, 8 * K), Shape(128, 128 * K), Shape(1024, 64 * K), Shape(512, 128 * K), Shape(1, 8 * K),
    Shape(8, 32 * K), Shape(128, 32 * K), Shape(32, 128 * K),
]
#: Second round, if the budget allows: other configs, without a transform.
ALTERNATIVES = {"4096x8K": ["M8x2", "M16", "plain"], "128x128K": ["L8x2", "plain"], "1024x64K": ["L8x2", "L4x4"],
                "512x128K": ["L8x2", "L4x4"], "1x8K": ["S8", "plain"], "8x32K": ["L8x2"], "128x32K": ["L8x2"],
                "32x128K": ["L8x2"]}
SGLANG = {"1x8K": 7.9, "8x32K": 22.4, "32x128K": 62.8, "128x32K": 25.6, "128x128K": 87.3, "512x128K": 278.3,
          "4096x8K": 268.5, "1024x64K": 259.4}
_orig_pick = launch.pick_config
_orig_split = launch.pick_split


def _plain_pick(rows, n, k, sms):
    c = _orig_pick(rows, n, k, sms)
    if c.stream or rows <= sms // 2:
        return Config(4096, 16, 1, c.stream)
    return Config(2048, 8, 2, False, maxnreg=128)


def _picker(name):
    cfg = V[name]
    if cfg is None:
        return _orig_pick
    if cfg == "plain":
        return _plain_pick
    return lambda *a: cfg


def main():
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 150.0
    t0 = time.time()
    results = []
    stream = torch.cuda.Stream()
    plan = [(shape, "pick", t) for shape in CELLS for t in ("none", "page_table")]
    if os.environ.get("VARIANTS_ONE"):  # the one-kernel path beside the default, transform off
        plan = [x for shape in CELLS for x in ((shape, "pick", "none"), (shape, "pick", "page_table"),
                                                (shape, "one", "none"))]
    if os.environ.get("VARIANTS_SPLIT_ALT"):
        plan += [(shape, name, "none") for shape in CELLS for name in SPLIT_ALTERNATIVES.get(shape.label, [])]
    if not os.environ.get("VARIANTS_ONLY_PICK"):
        plan += [(shape, name, "none") for shape in CELLS for name in ALTERNATIVES.get(shape.label, [])]
    inputs_for = {}
    with torch.cuda.stream(stream):
        for shape, name, transform in plan:
            if time.time() - t0 > budget:
                print("budget spent; stopping", flush=True)
                break
            if shape not in inputs_for:
                inputs_for.clear()
                torch.cuda.empty_cache()
                inputs_for[shape] = make_inputs(shape, rotations(shape.nbytes), "cuda")
            inputs = inputs_for[shape]
            count = len(inputs.logits)
            if isinstance(V.get(name), tuple):
                fields = V[name][1]
                launch.pick_split = lambda *a, fields=fields: replace(_orig_split(*a), **fields)
            else:
                launch.pick_config = _picker(name if name != "one" else "pick")
            launch.SPLIT = name != "one"  # "one": the one-kernel path (kernel.py) with pick_config
            cand = SglTransform("sgl_fused", transform)
            t1 = time.time()
            try:
                prep = cand.prepare(shape, inputs)
                for i in range(count):
                    prep.step(i)
                torch.cuda.synchronize()
                _check(shape, inputs, prep)
                us = time_graph(prep.step, count, 20)
                note = ""
            except Exception as exc:  # keep going: report it
                us, note = None, f"{type(exc).__name__}: {str(exc)[:300]}"
            finally:
                launch.pick_config = _orig_pick
                launch.pick_split = _orig_split
                launch.SPLIT = True
            sg = SGLANG.get(shape.label)
            tgt = f" target {sg / 1.2:.1f}" if sg else ""
            print(f"{shape.label:>10} {name:>5} {transform:>10} {f'{us:.1f} us' if us else 'FAILED'}{tgt} "
                  f"({time.time() - t1:.1f}s) {note}", flush=True)
            results.append(dict(cell=shape.label, config=name, transform=transform, us=us, note=note))
    launch.pick_config = _orig_pick
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, "variants.json"), "w") as f:
            json.dump(results, f, indent=1)
    print(f"done in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
