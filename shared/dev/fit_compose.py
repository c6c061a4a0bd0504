"""Dev only: fit ``topk_core.sgl.COMPOSE_US`` to a ``shared/device/compose_bench.py`` run: per transform, what the
Triton pass adds over ``auto:v2`` (``auto:<t>[tpass] - auto:v2``) as ``a + b * rows * k + c * rows * n`` by least
squares relative to each time with non-negative terms; then what the refitted model picks on each cell against
the measured fused and composed times.
    python3 shared/dev/fit_compose.py RESULTS.json
"""

from __future__ import annotations

import json
import re
import sys

import torch

from topk_core import registry, sgl
from topk_core.protocol import Problem

SHORT = {"page_table": "page", "ragged": "ragged"}


def _shape(label):
    m = re.fullmatch(r"(\d+)x(\d+)K( bf16)?( k=(\d+))?", label)
    return int(m[1]), int(m[2]) * 1024, int(m[5] or 2048), "bfloat16" if m[3] else "float32"


def _nnls(cols, ys):
    """Non-negative least squares relative to each time (rows weighted 1 / y): every subset of the terms solved
    free, the best one whose terms are all >= 0 kept. Returns one coefficient per column (0 where dropped)."""
    best = None
    n = len(cols)
    for mask in range(1, 1 << n):
        keep = [i for i in range(n) if mask >> i & 1]
        a = torch.tensor([[cols[i][r] / ys[r] for i in keep] for r in range(len(ys))], dtype=torch.float64)
        coef = torch.linalg.lstsq(a, torch.ones(len(ys), 1, dtype=torch.float64)).solution[:, 0]
        if (coef < 0).any():
            continue
        err = float(((a @ coef) - 1).square().sum())
        if best is None or err < best[0]:
            full = [0.0] * n
            for i, c in zip(keep, coef.tolist()):
                full[i] = c
            best = (err, full)
    return best[1]


def _best(problem):
    """(score, name) of the best backend on an sm_90 GPU, by the backends' own checks (no GPU needed here)."""
    scores = []
    for name, entry in registry.entries().items():
        if name != "reference" and entry.backend is not None and not entry.backend.supports(problem):
            scores.append((float(entry.backend.score(problem)), name))
    return max(scores)


def main():
    data = json.load(open(sys.argv[1]))
    print(data["gpu"], data["date"], data["command"])
    fits = {}
    for t, s in SHORT.items():
        ones, slots, cols, ys = [], [], [], []
        for cell in data["cells"]:
            v2, tp = cell["times"].get("auto:v2"), cell["times"].get(f"auto:{s}[tpass]")
            if v2 and tp:
                rows, n, k, _ = _shape(cell["cell"])
                ones.append(1.0)
                slots.append(rows * k)
                cols.append(rows * n)
                ys.append(tp - v2)
        fits[t] = _nnls([ones, slots, cols], ys)
        a, b, c = fits[t]
        worst = max(abs(a + b * x + c * z - y) / y for x, z, y in zip(slots, cols, ys))
        print(f"{t}: a = {a:.3f} us, b = {b:.4e} us per slot, c = {c:.4e} us per column ({len(ys)} cells, "
              f"worst residual {100 * worst:.0f}%)")
    for t, s in SHORT.items():
        a, b, c = fits[t]
        print(f"\n{t}: cell, plain / fused predicted us, pick; measured fused / tpass / torch")
        for cell in data["cells"]:
            rows, n, k, dtype = _shape(cell["cell"])
            plain = Problem(rows=rows, n=n, k=k, dtype=dtype, device="cuda", capability=(9, 0))
            fused = Problem(rows=rows, n=n, k=k, dtype=dtype, device="cuda", capability=(9, 0), transform=t)
            (sp, best_p), (sf, best_f) = _best(plain), _best(fused)
            torch_us = sgl.TORCH_US[0] + sgl.TORCH_US[1] * rows * n
            sgl.COMPOSE_US[t] = (a, b, c, 0.0)
            compose = best_f != best_p and sgl.compose_faster(sp, sf, t, rows, n, k)
            times = cell["times"]
            got = [times.get(f"auto:{s}[{v}]") for v in ("fused", "tpass", "torch")]
            print(f"  {cell['cell']:>14} {best_p} {torch_us / sp:.1f} / {best_f} {torch_us / sf:.1f} -> "
                  f"{'compose' if compose else 'fused'}; " + " / ".join(f"{g:.1f}" if g else "-" for g in got))


if __name__ == "__main__":
    main()
