"""Dev: time the radix backend's kernels per geometry, exact first; then per-phase clocks.

Usage (device): bash shared/device/run.sh python3 shared/device/radix_sweep.py [--stamps-first]
Each cell: register-kernel geometries (C, T, E) x regs.py variants (VARIANTS), timed as
`topk bench` does (CUDA-graph replay over rotating randn inputs, seq_lens uniform in
[N/2, N], indices only), each checked exactly first.
Then, with launch.STAMPS, clock64 deltas per phase of a few default geometries.
"""

from __future__ import annotations

import sys
import time

import torch

from topk_core import top_k_varlen
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.bench.timing import rotations, time_graph
from topk_core.testing import check_topk
from topk_radix import checks, launch, regs

K = 1024
#: regs.py variants (launch.REG_VARIANT): "old" = 0.2.0's kernel; W = warp_emit; G = gather (8192 keys);
#: X = early (stop once the threshold bin holds exactly the keys still needed); None = checks.reg_variant.
VARIANTS = {"old": {"gather": 0, "warp_emit": False, "early": False},
            "W": {"gather": 0, "warp_emit": True, "early": False},
            "X": {"gather": 0, "warp_emit": False, "early": True},
            "G": {"gather": 8192, "warp_emit": False, "early": False},
            "GW": {"gather": 8192, "warp_emit": True, "early": False},
            "GWX": {"gather": 8192, "warp_emit": True, "early": True},
            None: None}
B = "before"  # 0.2.0: its reg_geometry pick and variant "old"
CELLS = [  # shape, 0.2.0's geometry, extra (geometry, variant) pairs; "now" = no forcing at all
    (Shape(1, 8 * K), (1, 1024, 8), []),
    (Shape(1, 32 * K), (8, 512, 8), []),
    (Shape(1, 128 * K), (16, 512, 16), []),
    (Shape(8, 32 * K), (8, 512, 8), []),
    (Shape(8, 128 * K), (8, 1024, 16), []),
    (Shape(32, 128 * K), (8, 512, 32), []),
    (Shape(32, 32 * K), (2, 1024, 16), [((2, 1024, 16), "X")]),
    (Shape(1, 256 * K), (16, 512, 32), []),
    (Shape(128, 32 * K), (2, 512, 32), []),
    (Shape(1, 128 * K, dtype="bfloat16"), (16, 512, 16), []),
    (Shape(1, 128 * K, k=512), (16, 512, 16), []),
    (Shape(8, 64 * K, next_n=2), (8, 1024, 8), [((8, 1024, 8), "X")]),
]
STAMP_CELLS = [(Shape(1, 8 * K), (1, 1024, 8), None), (Shape(1, 32 * K), (8, 512, 8), None),
               (Shape(1, 128 * K), (16, 512, 16), None)]
PHASES = ["keys ready", "pass 0", "pass 1", "pass 2", "emit", "exit"]


def time_radix(shape: Shape, inputs, force, variant: dict | None) -> str:
    """µs of radix on ``shape`` (graph replay over ``inputs``), checked exact first; ``force``
    and ``variant`` go to ``launch.FORCE`` / ``launch.REG_VARIANT`` for this timing only."""
    launch.FORCE = force
    launch.REG_VARIANT = variant
    outs = [torch.empty(shape.rows, shape.k, dtype=torch.int32, device="cuda") for _ in inputs.logits]

    def step(i):
        top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, next_n=shape.next_n, out_indices=outs[i],
                     backend="radix")

    try:
        for i in range(len(outs)):
            step(i)
        torch.cuda.synchronize()
        for i in (0, len(outs) - 1):
            check_topk(inputs.logits[i], inputs.seq_lens[i], shape.k, outs[i], next_n=shape.next_n)
        return f"{time_graph(step, len(outs), replays=10):7.2f}"
    except Exception as exc:  # keep going: one call should report every geometry
        return f"FAIL {type(exc).__name__}: {str(exc)[:160]}"
    finally:
        launch.FORCE = None
        launch.REG_VARIANT = None


def stamp_clocks(shape: Shape, inputs, force, variant: dict | None) -> torch.Tensor:
    """The register kernel's per-CTA stamps (``regs.STAMPS`` words each, on the CPU) of one
    eager call on ``inputs.logits[0]`` (the third of three: compiled and warm)."""
    geo = force[1:] if force else checks.reg_geometry(shape.rows, shape.n, shape.dtype)
    buf = torch.zeros(shape.rows * geo[0] * regs.STAMPS, dtype=torch.int64, device="cuda")
    launch.FORCE, launch.STAMPS, launch.REG_VARIANT = force, buf, variant
    try:
        for _ in range(3):
            buf.zero_()
            top_k_varlen(inputs.logits[0], inputs.seq_lens[0], shape.k, backend="radix")
        torch.cuda.synchronize()
    finally:
        launch.FORCE, launch.STAMPS, launch.REG_VARIANT = None, None, None
    return buf.view(-1, regs.STAMPS).cpu()


def sweep():
    print("cell | before = 0.2.0 (its geometry, variant old) | now = reg_geometry + reg_variant | extras: us",
          flush=True)
    for shape, old_geo, extras in CELLS:
        inputs = make_inputs(shape, rotations(shape.nbytes), "cuda")
        rows = shape.rows
        geo = checks.reg_geometry(rows, shape.n, shape.dtype)
        now = f"now {geo} {checks.reg_variant(rows, shape.dtype, geo, shape.next_n) if geo else ''}"
        res = []
        for _ in range(2):
            res.append(f"before {old_geo} {time_radix(shape, inputs, ('regs', *old_geo), VARIANTS['old'])}")
            res.append(f"{now} {time_radix(shape, inputs, None, None)}")
        for g, v in extras:
            res.append(f"{g} {v} {time_radix(shape, inputs, ('regs', *g), VARIANTS[v])}")
        print(f"{shape.label} | " + " | ".join(res), flush=True)
        del inputs
        torch.cuda.empty_cache()


def stamps():
    print("\nper-phase clock64 deltas from CTA start (cycles): row 0 rank 0 / max over CTAs; "
          "globaltimer: CTA start spread, first start to last end (ns)", flush=True)
    for shape, geo, variant in STAMP_CELLS:
        s = stamp_clocks(shape, make_inputs(shape, 1, "cuda"), ("regs", *geo), VARIANTS[variant])
        cells = [f"{name} {int(s[0, j + 1])}/{int(s[:, j + 1].max())}" for j, name in enumerate(PHASES)]
        g0, g7 = s[:, 0], s[:, 7]
        print(f"{shape.label} {geo} {variant}: " + ", ".join(cells) +
              f"; start spread {int(g0.max() - g0.min())} ns, span {int(g7.max() - g0.min())} ns", flush=True)


if __name__ == "__main__":
    t0 = time.time()
    with torch.cuda.stream(torch.cuda.Stream()):  # graphs cannot be captured on the default stream
        if "--stamps-first" in sys.argv:
            stamps()
        sweep()
        if "--stamps-first" not in sys.argv:
            stamps()
    print(f"radix_sweep: {time.time() - t0:.0f} s", flush=True)
