"""Dev-only: a few representative calls, checked; for compute-sanitizer and quick smoke runs.

    python dev/cases.py [smoke|sanitize]
Shapes (sanitize): fp32 short rows with mixed lengths (0, negative, > N), next_n=2 with
compress_ratio=4, bf16 rows long enough for both pruning updates, and a 0.0 plateau
that overflows the candidate buffer (the row-streaming path), fp16 with k=1.
"""

import sys
import time

import torch

from topk_core.api import top_k_varlen
from topk_core.testing import check_topk, make_logits, make_seq_lens

SANITIZE = [  # rows, n, k, dtype, kind, next_n, compress_ratio, lens_mode
    (6, 5000, 64, torch.float32, "randn", 1, 1, "mixed"),
    (4, 3000, 100, torch.float32, "int_ties", 2, 4, "mixed"),
    (2, 70000, 512, torch.bfloat16, "randn", 1, 1, "full"),
    (2, 20000, 2048, torch.float32, "plateau", 1, 1, "full"),
    (2, 9000, 1, torch.float16, "nan", 1, 1, "mixed"),
]
SMOKE = SANITIZE + [
    (8, 131072, 2048, torch.float32, "randn", 1, 1, "uniform"),
    (3, 300000, 16384, torch.float32, "plateau", 1, 1, "full"),
    (16, 32768, 2048, torch.bfloat16, "int_ties", 4, 1, "mixed"),
    (5, 1 << 20, 2048, torch.float16, "randn", 1, 1, "uniform"),
]


def main(which):
    dev = torch.device("cuda")
    bad = 0
    for rows, n, k, dtype, kind, next_n, cr, mode in (SANITIZE if which == "sanitize" else SMOKE):
        logits = make_logits(kind, rows, n, dtype, dev, seed=rows + k, k=k)
        seq_lens = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=cr, seed=k, mode=mode, device=dev)
        t = time.time()
        idx, vals = top_k_varlen(logits, seq_lens, k, next_n=next_n, compress_ratio=cr, return_values=True,
                                 backend="radix_filter")
        torch.cuda.synchronize()
        took = time.time() - t
        try:
            check_topk(logits, seq_lens, k, idx, vals, next_n=next_n, compress_ratio=cr)
            status = "ok"
        except AssertionError as exc:
            status = f"FAIL {exc}"[:400]
            bad += 1
        print(f"{rows}x{n} k={k} {str(dtype)[6:]} {kind} next_n={next_n} cr={cr} {mode}: {status} ({took:.2f}s)",
              flush=True)
    print(f"cases: {bad} failed")
    return bad


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1] if len(sys.argv) > 1 else "smoke") else 0)
