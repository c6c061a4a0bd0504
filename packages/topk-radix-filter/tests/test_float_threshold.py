"""The filter's float compare (``cute_common.f32_key_floor``) against the order key, on CPU.

The kernel keeps a float32 ``x`` when ``not (x < f)`` (an unordered compare: NaN is kept), with
``f`` from the threshold key ``t``. This checks, for thresholds at every special boundary and at
random, that it keeps exactly the ``x`` with ``order_key(x) >= t``. A Python twin of the DSL
helper (same select structure) is what runs here; the GPU conformance suite runs the real one.
"""

import numpy as np
import torch

from topk_core.keys import order_keys

F32_INF_KEY = 0xFF800000


def key_floor(t: int) -> int:
    """Twin of ``cute_common.f32_key_floor``."""
    return (t ^ 0x80000000) if t & 0x80000000 else (t ^ 0xFFFFFFFF)


def as_f32(bits: np.ndarray) -> np.ndarray:
    return bits.astype(np.uint32).view(np.float32)


def test_float_compare_matches_order_key():
    rng = np.random.default_rng(0)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1e-45, -1e-45, 3.4e38, -3.4e38,
                         1.17549435e-38, -1.17549435e-38], dtype=np.float32)
    nan_payloads = as_f32(np.array([0x7FC00001, 0xFFFFFFFF, 0x7F800001, 0xFF800001], dtype=np.uint32))
    x = np.concatenate([specials, nan_payloads, rng.standard_normal(4000).astype(np.float32),
                        as_f32(rng.integers(0, 2**32, 4000, dtype=np.uint64))])
    keys = order_keys(torch.from_numpy(x.copy())).numpy().astype(np.int64) & 0xFFFFFFFF
    thresholds = {0, 1, 0x007FFFFE, 0x007FFFFF, 0x00800000, 0x7FFFFFFF, 0x80000000, 0x80000001,
                  F32_INF_KEY - 1, F32_INF_KEY}
    thresholds |= {int(k) for k in keys if k <= F32_INF_KEY}
    thresholds |= {int(k) & ~0x1FF for k in keys if k <= F32_INF_KEY}  # digit prefixes, as the sample gives
    thresholds |= set(rng.integers(0, F32_INF_KEY + 1, 2000).tolist())
    with np.errstate(invalid="ignore"):
        for t in sorted(thresholds):
            f = as_f32(np.array([key_floor(t)], dtype=np.uint32))[0]
            kept = ~(x < f)
            np.testing.assert_array_equal(kept, keys >= t, err_msg=f"threshold key {t:#010x}")
