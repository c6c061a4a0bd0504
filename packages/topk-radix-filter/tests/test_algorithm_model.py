"""A numpy model of the histogram design's bookkeeping (kernel.py, launch.HISTOGRAM),
checked against the reference on CPU.

It follows kernel.py step by step at block level (not per thread): the pruned pass-1
histogram in chunk-aligned segments, the bin search, the filtered pass, the candidate
buffer with its overflow path, the digit refinement and the final gather. It checks
the algorithm (bounds, digit widths, remaining-k bookkeeping); the GPU tests check
the kernel itself.
"""

import numpy as np
import pytest
import torch

from topk_core.keys import order_keys
from topk_core.testing import KINDS, check_topk, make_logits, make_seq_lens
from topk_radix_filter.launch import HISTOGRAM

DIGITS = {32: ((20, 12), (10, 10), (0, 10)), 16: ((4, 12), (0, 4))}  # as kernel.DIGITS
CHUNK = HISTOGRAM.threads * HISTOGRAM.unroll
PRUNE_AFTER = 16384


def find_bin(hist, krem):
    """kernel._find_bin: the bin holding the krem-th largest key, and krem within it."""
    if hist.sum() < krem:
        return -1, 0
    acc = 0
    for b in range(len(hist) - 1, -1, -1):
        if acc + hist[b] >= krem:
            return b, krem - acc
        acc += hist[b]
    raise AssertionError("unreachable")


def model_row(keys, length, k, bits, out, cand=4096):
    if length <= k:
        out[:length] = np.arange(length)
        out[length:] = -1
        return
    digits = DIGITS[bits]
    sh0 = digits[0][0]
    d0 = keys[:length] >> sh0
    hist = np.zeros(4096, dtype=np.int64)
    # Pass 1 in three chunk-aligned segments; keys below lo are not counted after a segment.
    first = max(4 * k, PRUNE_AFTER)
    e1 = min(length, -(-first // CHUNK) * CHUNK)
    np.add.at(hist, d0[:e1], 1)
    e2, lo = e1, 0
    if e1 < length:
        b, _ = find_bin(hist, k)
        lo = max(b + 1, 0)
        e2 = min(length, e1 * 4)
        seg = d0[e1:e2]
        np.add.at(hist, seg[seg >= lo], 1)
    if e2 < length:
        b, _ = find_bin(hist, k)
        lo = max(b + 1, lo)
        seg = d0[e2:]
        np.add.at(hist, seg[seg >= lo], 1)
    b0, krem = find_bin(hist, k)
    # Pass 2: above b0 to the output, inside b0 to the candidates, next digit histogrammed.
    above = np.nonzero(d0 > b0)[0][::-1]
    assert len(above) == k - krem
    out[: len(above)] = above
    pos = len(above)
    inside = np.nonzero(d0 == b0)[0][::-1]
    sh1, w1 = digits[1]
    hist = np.bincount((keys[inside] >> sh1) & ((1 << w1) - 1), minlength=4096)
    src = inside if len(inside) <= cand else np.arange(length)  # overflow: stream the row
    pref = b0 << sh0
    for p in range(1, len(digits)):
        sh, width = digits[p]
        b, krem = find_bin(hist[: 1 << width], krem)
        assert b >= 0
        pref |= b << sh
        if p + 1 < len(digits):
            nsh, nwidth = digits[p + 1]
            match = src[(keys[src] >> sh) == (pref >> sh)]
            hist = np.bincount((keys[match] >> nsh) & ((1 << nwidth) - 1), minlength=4096)
    thr = pref
    sel = src[((keys[src] >> sh0) == b0) & (keys[src] > thr)]
    out[pos: pos + len(sel)] = sel
    pos += len(sel)
    assert pos == k - krem
    ties = src[keys[src] == thr][:krem]
    assert len(ties) == krem
    out[pos:] = ties


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_model_is_exact(kind, dtype):
    cases = ((5, 3000, 64, 4096, "uniform"), (4, 40000, 700, 256, "uniform"), (3, 90000, 2048, 4096, "full"),
             (3, 5000, 1, 64, "uniform"), (16, 20000, 300, 128, "mixed"))
    for rows, n, k, cand, mode in cases:
        logits = make_logits(kind, rows, n, dtype, "cpu", seed=n + k, k=k)
        seq_lens = make_seq_lens(rows, n, seed=k, mode=mode)
        keys = order_keys(logits).numpy().astype(np.int64)
        lengths = seq_lens.to(torch.int64).clamp(0, n).numpy()
        idx = np.full((rows, k), -123456789, dtype=np.int64)
        for r in range(rows):
            model_row(keys[r], int(lengths[r]), k, 32 if dtype == torch.float32 else 16, idx[r], cand=cand)
        check_topk(logits, seq_lens, k, torch.from_numpy(idx).to(torch.int32))
