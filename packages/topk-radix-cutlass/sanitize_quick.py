"""Dev only: a few representative shapes for compute-sanitizer (memcheck, racecheck).

Shapes: short rows (L <= k), the candidate path, the streaming (overflow) path, values on/off,
fp32/bf16, next_n=2 with compress_ratio=4, lengths 0/negative/>N.
"""

import torch

from topk_core import top_k_varlen
from topk_core.testing import check_topk, make_logits, make_seq_lens

dev = torch.device("cuda")
for rows, n, k, dtype, kind, nn, cr in [(4, 3000, 64, torch.float32, "randn", 1, 1),
                                         (2, 9000, 100, torch.bfloat16, "int_ties", 2, 4),
                                         (2, 20000, 8, torch.float32, "plateau", 1, 1),
                                         (3, 700, 1000, torch.float16, "nan", 1, 1)]:
    x = make_logits(kind, rows, n, dtype, dev, seed=1, k=k)
    s = make_seq_lens(rows // nn, n, next_n=nn, compress_ratio=cr, seed=1, mode="mixed", device=dev)
    s[0] = -5
    for values in (False, True):
        i, v = top_k_varlen(x, s, k, next_n=nn, compress_ratio=cr, return_values=values, backend="radix_cutlass")
        torch.cuda.synchronize()
        check_topk(x, s, k, i, v, next_n=nn, compress_ratio=cr)
print("sanitize_quick: ok")
