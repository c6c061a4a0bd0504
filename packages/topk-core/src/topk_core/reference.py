"""The ``reference`` backend: exact, pure torch, CPU and CUDA, every option.

It ranks order-preserving integer keys (``keys.order_keys``), with columns outside
a row keyed below a real -inf, so one ``torch.topk`` over the whole width is exact.
It reads no device data on the host, so it is safe under CUDA-graph capture.
"""

from __future__ import annotations

import torch

from .keys import OUTSIDE_KEY, order_keys, valid_lengths, window_lengths, window_starts
from .protocol import PROTOCOL_VERSION, Call, Problem


def request_of_row(cu_seqlens_q: torch.Tensor | None, rows: int, device) -> torch.Tensor:
    """``req(b)``: b itself, or the r with ``cu_seqlens_q[r] <= b < cu_seqlens_q[r+1]``."""
    b = torch.arange(rows, device=device)
    if cu_seqlens_q is None:
        return b
    boundaries = cu_seqlens_q.to(torch.int64).contiguous()
    req = torch.searchsorted(boundaries, b, right=True) - 1
    return req.clamp_(0, max(boundaries.numel() - 2, 0))


def apply_transform(call: Call, local: torch.Tensor) -> torch.Tensor:
    """Translate selected local indices (int64, -1 padding) as ``call.transform`` says."""
    if call.transform == "none":
        return local
    selected = local >= 0
    if call.transform == "ragged":
        mapped = local + call.index_offsets.to(torch.int64)[:, None]
    elif call.transform == "page_table":
        # Index the table as it is: converting a wide table to int64 would cost more than the gather.
        table = call.page_table
        cols = local.clamp(min=0)
        if call.cu_seqlens_q is None:
            mapped = table.gather(1, cols)
        else:
            req = request_of_row(call.cu_seqlens_q, local.shape[0], local.device)
            mapped = table[req[:, None], cols]
        mapped = mapped.to(local.dtype)
    else:
        raise ValueError(f"transform: expected one of none/page_table/ragged, got {call.transform!r}")
    return torch.where(selected, mapped, torch.full_like(local, -1))


def select_local(call: Call) -> torch.Tensor:
    """Exact top-k of each row as int64 local indices ``[rows, k]``, -1 padded."""
    logits, k = call.logits, call.top_k
    rows, n = logits.shape
    device = logits.device
    lengths = valid_lengths(call.seq_lens, rows, n, call.next_n, call.compress_ratio)
    starts = window_starts(call.row_starts, rows, n, device)
    lengths = window_lengths(lengths, starts, n)
    cols = torch.arange(n, device=device)
    inside = (cols[None, :] >= starts[:, None]) & (cols[None, :] < (starts + lengths)[:, None])
    keys = torch.where(inside, order_keys(logits), torch.full((), OUTSIDE_KEY, device=device))
    k_eff = min(k, n)
    top_keys, top_cols = torch.topk(keys, k_eff, dim=1) if k_eff > 0 else (
        keys[:, :0], keys[:, :0].to(torch.int64))
    local = torch.where(top_keys == OUTSIDE_KEY, torch.full_like(top_cols, -1), top_cols - starts[:, None])
    if k_eff < k:
        local = torch.cat([local, local.new_full((rows, k - k_eff), -1)], dim=1)
    return local


_BITS = {4: torch.int32, 2: torch.int16}


class ReferenceBackend:
    """Always available; the last resort of ``auto``."""

    name = "reference"
    protocol = PROTOCOL_VERSION

    def environment(self) -> str | None:
        return None

    def supports(self, problem: Problem) -> str | None:
        return None

    def score(self, problem: Problem) -> float:
        return 0.0

    def run(self, problem: Problem, call: Call) -> None:
        local = select_local(call)
        if call.values is not None:
            if call.logits.shape[1] == 0:
                call.values.fill_(float("-inf"))
            else:
                # On the raw bits: CPU gather of 16-bit floats rewrites NaN payloads and signs, and values must
                # be the logits bit for bit.
                bits = _BITS[call.logits.element_size()]
                neg_inf = torch.full((), float("-inf"), dtype=call.logits.dtype, device=local.device).view(bits)
                gathered = call.logits.view(bits).gather(1, local.clamp(min=0))
                call.values.view(bits).copy_(torch.where(local >= 0, gathered, neg_inf))
        call.indices.copy_(apply_transform(call, local))


backend = ReferenceBackend()
