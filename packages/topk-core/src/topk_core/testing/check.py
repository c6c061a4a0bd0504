"""``check_topk``: a tie-safe exactness check of one call's outputs.

It reads device data (it is a test helper, not for graph capture).
"""

from __future__ import annotations

import torch

from ..keys import OUTSIDE_KEY, order_keys, valid_lengths, window_lengths, window_starts


class TopKMismatch(AssertionError):
    """The outputs break the contract; the message names the first bad row."""


def expected_lengths(logits, seq_lens, next_n=1, compress_ratio=1, row_starts=None) -> torch.Tensor:
    rows, n = logits.shape
    lengths = valid_lengths(seq_lens, rows, n, next_n, compress_ratio)
    starts = window_starts(row_starts, rows, n, logits.device)
    return window_lengths(lengths, starts, n)


def _fail(msg: str, row: int, idx_row: torch.Tensor, length: int) -> None:
    shown = idx_row[:16].cpu().tolist()
    raise TopKMismatch(f"row {row} (valid length {length}): {msg}; first indices {shown}")


def check_topk(
    logits: torch.Tensor,
    seq_lens: torch.Tensor,
    k: int,
    indices: torch.Tensor,
    values: torch.Tensor | None = None,
    *,
    next_n: int = 1,
    compress_ratio: int = 1,
    row_starts: torch.Tensor | None = None,
) -> None:
    """Raise ``TopKMismatch`` unless ``indices``/``values`` are a correct top-k.

    Checks shape and dtype; that rows with ``L <= k`` hold ``0..L-1`` then -1; that
    longer rows hold ``k`` distinct in-row indices whose key multiset equals the
    reference's (ties interchangeable, NaN above +inf, -0 == +0); and that values
    equal ``logits[r, idx]`` bit for bit, -inf beside -1. Indices are local to
    ``row_starts`` windows when given. Poisoned slots fail every one of these.
    """
    rows, n = logits.shape
    if indices.dtype != torch.int32 or tuple(indices.shape) != (rows, k):
        raise TopKMismatch(f"indices: expected int32 ({rows}, {k}), got {indices.dtype} {tuple(indices.shape)}")
    # Runs on the logits' device (fast on GPU); only failure messages come to the host.
    dev = logits.device
    logits_c = logits.detach()
    idx = indices.detach().to(dev, torch.int64)
    seq_lens = seq_lens.to(dev)
    row_starts = None if row_starts is None else row_starts.to(dev)
    lengths = expected_lengths(logits_c, seq_lens, next_n, compress_ratio, row_starts)
    starts = window_starts(row_starts, rows, n, dev)
    want = lengths.clamp(max=k)
    valid = idx >= 0
    # Every slot is either -1 or a real index; the number of real ones is min(L, k).
    bad_neg = (idx < -1).any(dim=1)
    bad_count = valid.sum(dim=1) != want
    out_of_row = (valid & (idx >= lengths[:, None])).any(dim=1)
    srt = torch.sort(torch.where(valid, idx, torch.full_like(idx, -1)), dim=1, descending=True).values
    if k > 1:
        dup = ((srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] >= 0)).any(dim=1)
    else:
        dup = torch.zeros(rows, dtype=torch.bool, device=dev)
    misplaced = (valid != (torch.arange(k, device=dev)[None, :] < want[:, None])).any(dim=1)
    for name, mask in (("an index below -1 (unwritten slot?)", bad_neg),
                       ("-1 padding must fill exactly the slots after the first min(L, k)", misplaced),
                       ("wrong number of selected slots", bad_count),
                       ("an index outside the row", out_of_row),
                       ("a repeated index", dup)):
        if mask.any():
            r = int(mask.nonzero()[0])
            _fail(name, r, idx[r], int(lengths[r]))
    # Value multiset: sorted keys of the chosen columns equal the reference's top keys.
    keys = order_keys(logits_c)
    absolute = (idx.clamp(min=0) + starts[:, None]).clamp(max=max(n - 1, 0))
    picked = keys.gather(1, absolute) if n else torch.zeros_like(idx)
    chosen = torch.where(valid, picked, torch.full_like(idx, OUTSIDE_KEY))
    chosen = torch.sort(chosen, dim=1, descending=True).values
    cols = torch.arange(n, device=dev)
    inside = (cols[None, :] >= starts[:, None]) & (cols[None, :] < (starts + lengths)[:, None])
    ref_keys = torch.where(inside, keys, torch.full_like(keys, OUTSIDE_KEY))
    k_eff = min(k, n)
    ref_top = torch.topk(ref_keys, k_eff, dim=1).values if k_eff else ref_keys[:, :0]
    if k_eff < k:
        ref_top = torch.cat([ref_top, ref_top.new_full((rows, k - k_eff), OUTSIDE_KEY)], dim=1)
    mismatch = (chosen != ref_top).any(dim=1)
    if mismatch.any():
        r = int(mismatch.nonzero()[0])
        _fail("selected values differ from the exact top-k", r, idx[r], int(lengths[r]))
    if values is not None:
        vals = values.detach().to(dev)
        if vals.dtype != logits.dtype or tuple(vals.shape) != (rows, k):
            raise TopKMismatch(f"values: expected {logits.dtype} ({rows}, {k}), got {vals.dtype} {tuple(vals.shape)}")
        # All on the raw bits: CPU gather of 16-bit floats rewrites NaN payloads and signs.
        int_view = torch.int32 if vals.dtype == torch.float32 else torch.int16
        raw = logits_c.view(int_view)
        gathered = raw.gather(1, absolute) if n else torch.zeros_like(vals.view(int_view))
        neg_inf = torch.full((), float("-inf"), dtype=vals.dtype, device=dev).view(int_view)
        expect = torch.where(valid, gathered, neg_inf)
        differs = (vals.view(int_view) != expect).any(dim=1)
        if differs.any():
            r = int(differs.nonzero()[0])
            _fail("values are not logits[r, idx] bit for bit (or -inf beside -1)", r, idx[r], int(lengths[r]))
