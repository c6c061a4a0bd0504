"""One Triton launch that applies an SGLang index transform to a plain selection's ``[rows, k]`` int32 indices.

``topk_core.sgl`` composes a plain selection with this pass where its model says that beats the fused call. It
does what ``reference.apply_transform`` does (which stays the CPU path), with no int64 copy: each slot is read once,
the page table is gathered only where a slot holds a column, and each slot is written once.

- ``page_table``: ``out[b, j] = table[req(b), local[b, j]]``; ``req(b)`` is ``b``, or with ``cu_seqlens_q`` how
  many of ``cu[1 .. R-1]`` are ``<= b`` (R table rows), so rows outside every request take the first or the last.
- ``ragged``: ``out[b, j] = local[b, j] + offsets[b]`` (int32, wrapping as the reference's copy does).
- A negative slot (no column) stays ``-1``.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

#: Slots per program: a 2048-slot row is two programs, so even one row spreads over a few SMs.
BLOCK = 1024
#: cu_seqlens_q entries counted per step of the request lookup.
REQ_BLOCK = 256
TRANSFORMS = {"page_table": 1, "ragged": 2}


@triton.jit
def _transform_pass(local_ptr, out_ptr, k, table_ptr, table_stride, cu_ptr, num_req, offsets_ptr,
                    TRANSFORM: tl.constexpr, HAS_CU: tl.constexpr, BLOCK: tl.constexpr, REQ_BLOCK: tl.constexpr):
    b = tl.program_id(0)
    slots = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inside = slots < k
    base = b.to(tl.int64) * k
    local = tl.load(local_ptr + base + slots, mask=inside, other=-1)
    chosen = local >= 0
    if TRANSFORM == 1:
        req = b.to(tl.int64)
        if HAS_CU:
            lane = tl.arange(0, REQ_BLOCK)
            count = 0
            for start in range(1, num_req, REQ_BLOCK):
                r = start + lane
                bound = tl.load(cu_ptr + r, mask=r < num_req, other=0)
                count += tl.sum(((r < num_req) & (bound <= b)).to(tl.int32), axis=0)
            req = count.to(tl.int64)
        mapped = tl.load(table_ptr + req * table_stride + local, mask=inside & chosen, other=-1)
    else:
        mapped = local + tl.load(offsets_ptr + b)
    tl.store(out_ptr + base + slots, tl.where(chosen, mapped, -1), mask=inside)


def apply_transform_pass(local: torch.Tensor, out: torch.Tensor, transform: str, page_table=None,
                         cu_seqlens_q=None, index_offsets=None) -> None:
    """Write ``transform`` of ``local`` (int32 ``[rows, k]``, contiguous, -1 padded) into ``out`` (same shape).

    The caller has validated the operands as ``topk_core.sgl`` does (int32, on ``local``'s device, unit strides)."""
    rows, k = local.shape
    if rows == 0 or k == 0:
        return
    code = TRANSFORMS[transform]
    table = page_table if code == 1 else local
    cu = cu_seqlens_q if cu_seqlens_q is not None else local
    offsets = index_offsets if code == 2 else local
    grid = (rows, triton.cdiv(k, BLOCK))
    _transform_pass[grid](local, out, k, table, table.stride(0) if code == 1 else 0, cu,
                          page_table.shape[0] if code == 1 else 0, offsets, TRANSFORM=code,
                          HAS_CU=cu_seqlens_q is not None and code == 1, BLOCK=BLOCK, REQ_BLOCK=REQ_BLOCK,
                          num_warps=4)
