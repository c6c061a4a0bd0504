"""Dev only: a few representative calls for compute-sanitizer (memcheck, racecheck).

Shapes: two-pass (4x8192 k=2048, fp32, page table + cu_seqlens_q, row_starts), stream
(2x65536 k=2048, fp32, ragged; sorted rows force compactions), short rows (3x5000 k=64,
bf16, values), k > N (2x300 k=512), fp16 next_n=2 compress_ratio=4.
Each result is checked, so a run that is clean but wrong still fails.
Usage: compute-sanitizer --tool memcheck python3 packages/topk-sgl-fused/sanitize_quick.py
"""

import torch

from topk_core import sgl, top_k_varlen
from topk_core.reference import request_of_row
from topk_core.testing import check_topk, make_logits, make_seq_lens

dev = torch.device("cuda")


def main():
    x = make_logits("int_ties", 4, 8192, torch.float32, dev, seed=1, k=2048)
    lens = torch.tensor([8192, 9000, 0, 3000], dtype=torch.int32, device=dev)
    starts = torch.tensor([0, 5, 100, 8000], dtype=torch.int32, device=dev)
    cu = torch.tensor([0, 1, 4], dtype=torch.int32, device=dev)
    table = (torch.arange(8192)[None, :] + 100000 * torch.arange(2)[:, None]).to(torch.int32).to(dev)
    out = sgl.fast_topk_transform_fused(x, lens, table, cu, 2048, row_starts=starts, backend="sgl_fused")
    req = request_of_row(cu, 4, dev)
    check_topk(x, lens, 2048, torch.where(out >= 0, out - 100000 * req[:, None].int(), out), row_starts=starts)

    x = make_logits("sorted", 2, 65536, torch.float32, dev, seed=2)
    lens = torch.tensor([65536, 40000], dtype=torch.int32, device=dev)
    offsets = torch.tensor([7, 1000], dtype=torch.int32, device=dev)
    out = sgl.fast_topk_transform_ragged_fused(x, lens, offsets, 2048, backend="sgl_fused")
    check_topk(x, lens, 2048, torch.where(out >= 0, out - offsets[:, None], out))

    for rows, n, k, dtype, kind, next_n, cr in ((3, 5000, 64, torch.bfloat16, "nan", 1, 1),
                                                 (2, 300, 512, torch.float32, "randn", 1, 1),
                                                 (4, 3000, 100, torch.float16, "plateau", 2, 4)):
        x = make_logits(kind, rows, n, dtype, dev, seed=3, k=k)
        lens = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=cr, seed=3, device=dev)
        idx, vals = top_k_varlen(x, lens, k, next_n=next_n, compress_ratio=cr, return_values=True,
                                 backend="sgl_fused")
        check_topk(x, lens, k, idx, vals, next_n=next_n, compress_ratio=cr)
    torch.cuda.synchronize()
    print("sanitize_quick: all results exact")


if __name__ == "__main__":
    main()
