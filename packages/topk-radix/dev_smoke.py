"""Dev only: a few exact checks with timings of the first compile, then sanitizer-sized shapes.

``python dev_smoke.py`` checks a handful of shapes and prints the compile times;
``python dev_smoke.py --sanitize`` runs only tiny shapes (for compute-sanitizer).
"""

from __future__ import annotations

import sys
import time

import torch

from topk_core import top_k_varlen
from topk_core.kernels import toolchain
from topk_core.testing import check_topk, make_logits, make_seq_lens

CASES = [  # rows, n, k, dtype, kind, next_n, mode
    (1, 8192, 2048, torch.float32, "randn", 1, "uniform"),
    (3, 3000, 64, torch.float32, "int_ties", 1, "mixed"),
    (4, 32768, 512, torch.bfloat16, "nan", 1, "mixed"),
    (8, 131072, 2048, torch.float32, "plateau", 2, "uniform"),
    (2, 5000, 100, torch.float16, "inf", 1, "mixed"),
    (1, 131072, 2048, torch.float32, "randn", 1, "full"),
]
SANITIZE = [
    (2, 4000, 64, torch.float32, "int_ties", 1, "mixed"),
    (2, 40000, 256, torch.bfloat16, "nan", 2, "uniform"),
    (1, 131072, 2048, torch.float32, "randn", 1, "uniform"),
]


def main():
    cases = SANITIZE if "--sanitize" in sys.argv else CASES
    ok = 0
    for rows, n, k, dtype, kind, next_n, mode in cases:
        logits = make_logits(kind, rows, n, dtype, "cuda", seed=rows + n, k=k)
        lens = make_seq_lens(rows // next_n, n, next_n=next_n, seed=n, mode=mode, device="cuda")
        t0 = time.perf_counter()
        try:
            idx, vals = top_k_varlen(logits, lens, k, next_n=next_n, return_values=True, backend="radix")
            torch.cuda.synchronize()
            dt = time.perf_counter() - t0
            check_topk(logits, lens, k, idx, vals, next_n=next_n)
            ok += 1
            print(f"OK   {rows}x{n} k={k} {dtype} {kind} next_n={next_n}: first call {dt:.2f}s", flush=True)
        except Exception as exc:  # keep going: one device call should report every case
            print(f"FAIL {rows}x{n} k={k} {dtype} {kind} next_n={next_n}: {type(exc).__name__}: {exc}"[:600],
                  flush=True)
    print("builds:", {k[4:]: round(v, 2) for k, v in toolchain.build_seconds.items()})
    print(f"{ok}/{len(cases)} ok")


if __name__ == "__main__":
    main()
