"""Dev only: a quick sweep of radix_cutlass against check_topk, one line per failing case.

Usage (GPU): python3 packages/topk-radix-cutlass/dev_check.py
"""

import itertools
import sys
import time

import torch

from topk_core import top_k_varlen
from topk_core.testing import check_topk, make_logits, make_seq_lens

DT = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def case(rows, n, k, dtype, kind, next_n=1, cr=1, mode="mixed", seed=0, values=True):
    dev = torch.device("cuda")
    x = make_logits(kind, rows, n, DT[dtype], dev, seed=seed, k=k)
    s = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=cr, seed=seed, mode=mode, device=dev)
    i, v = top_k_varlen(x, s, k, next_n=next_n, compress_ratio=cr, return_values=values, backend="radix_cutlass")
    torch.cuda.synchronize()
    check_topk(x, s, k, i, v, next_n=next_n, compress_ratio=cr)


def main():
    t = time.time()
    case(2, 1000, 16, "float32", "randn")
    print(f"first call (compile) {time.time() - t:.2f}s", flush=True)
    bad = total = 0
    grid = list(itertools.product(
        [(4, 3000, 1), (4, 3000, 64), (3, 20000, 2048), (2, 70000, 2048), (1, 300, 300), (5, 1000, 1500)],
        ["float32", "bfloat16", "float16"],
        ["randn", "int_ties", "plateau", "nan", "inf", "zeros_denormals", "huge", "sorted"]))
    for (rows, n, k), dtype, kind in grid:
        total += 1
        try:
            case(rows, n, k, dtype, kind, seed=total)
        except Exception as e:  # noqa: BLE001 - report and keep sweeping
            bad += 1
            print(f"FAIL rows={rows} n={n} k={k} {dtype} {kind}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    for nn, cr in [(2, 1), (4, 4), (3, 4)]:
        total += 1
        try:
            case(4 * nn, 5000, 128, "float32", "randn", next_n=nn, cr=cr, seed=total)
        except Exception as e:  # noqa: BLE001
            bad += 1
            print(f"FAIL next_n={nn} cr={cr}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    for big in [(1, 1 << 20, 2048, "float32", "randn"), (2, 1 << 20, 2048, "bfloat16", "int_ties"),
                (1, 1 << 20, 4, "float32", "plateau")]:
        total += 1
        try:
            case(*big, mode="full", seed=total)
        except Exception as e:  # noqa: BLE001
            bad += 1
            print(f"FAIL big {big}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    print(f"dev_check: {total - bad}/{total} ok in {time.time() - t:.1f}s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
