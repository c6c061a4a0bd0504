"""Dev, CPU only: a numpy model of radix_filter's sampled threshold (``interp``) on randn float32 rows.

It follows sampled.py step by step (the sample's blocks of 32 columns, the rank
``r = mu + margin * root(mu) + 2``, the bin search, the interpolation pushed down by ``j/4 + 2``)
and counts, per row, the keys the filter would keep: below ``k`` or above ``cand`` means the
exact two-read fallback takes the row. Rows are randn with lengths uniform in [N/2, N], like
``topk bench``. Usage:
  python3 shared/dev/threshold_model.py N ROWS [--k 2048] [--sample 4096] [--sample-bits 11]
      [--cand 8192] [--margin 4] [--root floor2|floor1|newton] [--seed 0] [--bits 16]
``--root``: floor2 = floor(sqrt(mu)) + 2 (0.5.0's kernel), floor1 = floor(sqrt(mu)) + 1,
newton = 0.4.0's integer Newton square root plus one.
"""

import argparse

import numpy as np


def order_keys(x: np.ndarray, bits: int = 32) -> np.ndarray:
    """Order-preserving keys of float32 rows, or (bits=16) of the rows rounded to bfloat16."""
    b = x.view(np.uint32)
    if bits == 16:  # round to nearest even on the top 16 bits
        b = ((b + np.uint32(0x7FFF) + ((b >> 16) & np.uint32(1))) >> 16).astype(np.uint32)
    top = np.uint32(1 << (bits - 1))
    mask = np.uint32((1 << bits) - 1)
    return np.where(b & top, ~b & mask, b | top).astype(np.uint32)


def newton_root(mu: int) -> int:
    y = 1 << ((int(mu | 1).bit_length() + 1) // 2)
    for _ in range(5):
        y = (y + mu // y + 1) // 2
    return y + 1


ROOTS = {"floor2": lambda mu: int(np.sqrt(np.float32(mu))) + 2,
         "floor1": lambda mu: int(np.sqrt(np.float32(mu))) + 1,
         "newton": newton_root}


def threshold(keys: np.ndarray, k: int, sample: int, sample_bits: int, margin: int, root, bits: int = 32) -> int | None:
    """The filter threshold the kernel computes for one row, or None when the sample cannot place it."""
    n = len(keys)
    blocks = sample // 32
    step = (n - 32) // (blocks - 1)
    s = keys[(np.arange(blocks)[:, None] * step + np.arange(32)[None, :]).ravel()]
    mu = (sample * k - 1) // n + 1
    r = mu + margin * root(mu) + 2
    if r > sample // 2:
        return None
    sh0 = bits - sample_bits
    hist = np.bincount((s >> np.uint32(sh0)).astype(np.int64), minlength=1 << sample_bits)
    at_or_above = np.cumsum(hist[::-1])[::-1]
    b1 = int(np.nonzero(at_or_above >= r)[0].max())
    h = int(hist[b1])
    j = h - (r - int(at_or_above[b1] - h))
    below = max(j - j // 4 - 2, 0)
    off = min(int(np.float32(below) * (np.float32(1) / np.float32(h)) * np.float32(1 << sh0)), (1 << sh0) - 1)
    return (b1 << sh0) | off


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("rows", type=int)
    ap.add_argument("--k", type=int, default=2048)
    ap.add_argument("--sample", type=int, default=4096)
    ap.add_argument("--sample-bits", type=int, default=11)
    ap.add_argument("--cand", type=int, default=8192)
    ap.add_argument("--margin", type=int, default=4)
    ap.add_argument("--root", choices=sorted(ROOTS), default="floor2")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bits", type=int, choices=(16, 32), default=32, help="16: bfloat16 rows")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    kept, missed = [], 0
    for _ in range(a.rows):
        length = int(rng.integers(a.n // 2, a.n + 1))
        keys = order_keys(rng.standard_normal(length).astype(np.float32), a.bits)
        t = threshold(keys, a.k, a.sample, a.sample_bits, a.margin, ROOTS[a.root], a.bits)
        if t is None:
            missed += 1
            continue
        kept.append(int((keys >= np.uint32(t)).sum()))
    kept = np.array(kept)
    print(f"bits={a.bits} N={a.n} rows={a.rows} k={a.k} sample={a.sample} sample_bits={a.sample_bits} cand={a.cand} "
          f"root={a.root}: fallback {int((kept < a.k).sum() + (kept > a.cand).sum() + missed)} rows "
          f"(below k {int((kept < a.k).sum())}, over cand {int((kept > a.cand).sum())}, no sample {missed}); "
          f"kept median {int(np.median(kept))}, max {int(kept.max())}")


if __name__ == "__main__":
    main()
