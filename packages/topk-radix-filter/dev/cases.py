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


def diagnose(logits, seq_lens, k, idx, next_n, cr):
    """Per-row facts of a failing case: unwritten slots, -1s, repeats, key range vs the exact one."""
    from topk_core.keys import order_keys
    from topk_core.testing import expected_lengths

    lengths = expected_lengths(logits.cpu(), seq_lens.cpu(), next_n, cr)
    idx = idx.cpu().long()
    keys = order_keys(logits.cpu().float() if logits.dtype == torch.float32 else logits.cpu())
    notes = []
    for r in range(idx.shape[0]):
        row, length = idx[r], int(lengths[r])
        unwritten = int((row == -123456789).sum())
        neg = int((row == -1).sum())
        valid = row[(row >= 0) & (row < length)]
        dup = valid.numel() - valid.unique().numel()
        outside = int(((row >= length) | ((row < -1) & (row != -123456789))).sum())
        if length > k:
            exact = torch.topk(keys[r, :length], k).values
            got = keys[r, valid].sort(descending=True).values if valid.numel() else exact[:0]
            kth, got_min = int(exact[-1]), int(got[-1]) if got.numel() else -1
            n_gt_kth = int((keys[r, :length] > exact[-1]).sum())
            fact = f"kth_key={kth:#x} got_min={got_min:#x} above_kth={n_gt_kth}"
        else:
            fact = "short row"
        notes.append(f"r{r} L={length} unwritten={unwritten} neg1={neg} dup={dup} outside={outside} {fact}")
        if len(notes) >= 4:
            break
    return "\n    ".join(notes)


def main(which):
    dev = torch.device("cuda")
    bad = 0
    for rows, n, k, dtype, kind, next_n, cr, mode in (SANITIZE if which == "sanitize" else SMOKE):
        logits = make_logits(kind, rows, n, dtype, dev, seed=rows + k, k=k)
        seq_lens = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=cr, seed=k, mode=mode, device=dev)
        out_i = torch.full((rows, k), -123456789, dtype=torch.int32, device=dev)
        out_v = torch.full((rows, k), 12345.0, dtype=dtype, device=dev)
        t = time.time()
        idx, vals = top_k_varlen(logits, seq_lens, k, next_n=next_n, compress_ratio=cr, return_values=True,
                                 out_indices=out_i, out_values=out_v, backend="radix_filter")
        torch.cuda.synchronize()
        took = time.time() - t
        try:
            check_topk(logits, seq_lens, k, idx, vals, next_n=next_n, compress_ratio=cr)
            status = "ok"
        except AssertionError as exc:
            status = f"FAIL {exc}"[:400] + "\n    " + diagnose(logits, seq_lens, k, idx, next_n, cr)
            bad += 1
        print(f"{rows}x{n} k={k} {str(dtype)[6:]} {kind} next_n={next_n} cr={cr} {mode}: {status} ({took:.2f}s)",
              flush=True)
    print(f"cases: {bad} failed")
    return bad


if __name__ == "__main__":
    sys.exit(1 if main(sys.argv[1] if len(sys.argv) > 1 else "smoke") else 0)
