"""The rules behind regs.py's lean flags (``lean.py``: fkey, emit1, nozero), checked on CPU.

Python twins of the kernel's arithmetic (same operations, same order) against
``topk_core.keys.order_keys``; the GPU tests (test_conformance.py, ``test_lean_variants``)
run the real kernels.
"""

import numpy as np
import pytest
import torch

from topk_core.keys import order_keys

#: (shift, width) of the register kernel's digits (``cute_radix.digits(bits, 11)``).
DIGITS = {32: ((21, 11), (10, 11), (0, 10)), 16: ((5, 11), (0, 5))}
M32 = 0xFFFFFFFF


def as_f32(bits) -> np.ndarray:
    return np.asarray(bits, dtype=np.uint64).astype(np.uint32).view(np.float32)


def fkey_twin(x: np.ndarray) -> np.ndarray:
    """``lean.f32_key_fadd``: NaN test on the input, x + 0.0, sign flip, NaN select."""
    with np.errstate(invalid="ignore"):
        r = (x + np.float32(0.0)).view(np.uint32).astype(np.int64)
    s = np.where(r & 0x80000000, M32, 0) | 0x80000000  # shr.s32 31, or 0x80000000
    return np.where(np.isnan(x), M32, r ^ s)


def _floats(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1e-45, -1e-45, 3.4e38, -3.4e38,
                         1.17549435e-38, -1.17549435e-38, 1e-40, -1e-40], dtype=np.float32)
    nans = as_f32([0x7FC00001, 0xFFFFFFFF, 0x7F800001, 0xFF800001, 0xFFC00000, 0x7FFFFFFF])
    edges = as_f32([0x00000001, 0x007FFFFF, 0x00800000, 0x80000001, 0x807FFFFF, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF])
    return np.concatenate([specials, nans, edges, rng.standard_normal(5000).astype(np.float32),
                           as_f32(rng.integers(0, 2**32, 20000, dtype=np.uint64))])


def test_fkey_matches_order_key():
    x = _floats()
    want = order_keys(torch.from_numpy(x.copy())).numpy().astype(np.int64) & M32
    np.testing.assert_array_equal(fkey_twin(x), want)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_no_real_key_in_pass0_bin0(dtype):
    """nozero: key 0 (no column) may share bin 0 of pass 0 because no real key lives there."""
    bits = 32 if dtype == torch.float32 else 16
    x = torch.tensor([float("-inf"), -3e38 if bits != 16 else -6.0e4, float("nan"), -0.0], dtype=dtype)
    if dtype == torch.float16:
        x = torch.cat([x, torch.tensor([-65504.0], dtype=dtype)])
    keys = order_keys(x)
    sh0 = DIGITS[bits][0][0]
    assert int(keys.min()) >> sh0 >= 1
    # every key of the dtype (16-bit: all of them; fp32: -inf is the lowest non-NaN key)
    if bits == 16:
        every = torch.arange(1 << 16, dtype=torch.int32).to(torch.int16).view(dtype)
        assert int(order_keys(every).min()) >> sh0 >= 1
    else:
        assert int(order_keys(torch.tensor([float("-inf")]))[0]) == 0x007FFFFF


def _select(keys: np.ndarray, k: int, bits: int):
    """The register kernel's passes as a model: each pass histograms the keys matching the digits
    found so far (pass 0: every key, key 0 included, as nozero does) and scans from the top bin
    for the ``need``-th key. Returns (prefix, shift of the last digit, bins chosen)."""
    prefix, need, tsh, chosen = 0, k, 0, []
    for p, (sh, w) in enumerate(DIGITS[bits]):
        if p == 0:
            sel = keys
        else:
            sp = DIGITS[bits][p - 1][0]
            sel = keys[(keys >> sp) == (prefix >> sp)]
        hist = np.bincount(((sel >> sh) & ((1 << w) - 1)).astype(np.int64), minlength=1 << w)
        acc = 0
        for b in range((1 << w) - 1, -1, -1):
            if acc < need <= acc + hist[b]:
                break
            acc += hist[b]
        chosen.append(b)
        prefix |= b << sh
        need -= acc
        tsh = sh
    return prefix, tsh, need, chosen


def _emit_twin(keys: np.ndarray, prefix: int, tsh: int):
    """emit1's compares: the bin's edges instead of shifts."""
    lo = (prefix >> tsh) << tsh
    hi = lo | ((1 << tsh) - 1)
    return keys > hi, (keys >= lo) & (keys <= hi)


@pytest.mark.parametrize("bits", [32, 16])
@pytest.mark.parametrize("kind", ["randn", "ties", "pad"])
def test_nozero_select_and_edge_emit(bits, kind):
    """With key 0 counted in pass 0, the chosen bins are never bin 0 of pass 0, the threshold is
    the k-th largest real key, and emit1's edge compares pick exactly the shifted compares' keys."""
    rng = np.random.default_rng(bits * 31 + len(kind))
    dtype = torch.float32 if bits == 32 else torch.bfloat16
    for _ in range(40):
        n = int(rng.integers(64, 3000))
        length = int(rng.integers(2, n + 1))
        k = int(rng.integers(1, length))  # the kernel's passes run only when length > k
        if kind == "randn":
            x = torch.from_numpy(rng.standard_normal(n).astype(np.float32)).to(dtype)
        elif kind == "ties":
            x = torch.from_numpy(rng.integers(-3, 3, n).astype(np.float32)).to(dtype)
        else:  # -inf plateaus, NaN and -0.0 around real values
            x = torch.from_numpy(rng.choice(np.array([-np.inf, np.nan, -0.0, 0.0, 1.0, -2.0], np.float32), n)).to(dtype)
        keys = order_keys(x).numpy().astype(np.int64)
        keys[length:] = 0  # columns outside [0, L)
        prefix, tsh, need, chosen = _select(keys, k, bits)
        assert chosen[0] != 0
        real = np.sort(keys[:length])[::-1]
        assert prefix >> tsh == int(real[k - 1]) >> tsh  # the threshold bin holds the k-th key
        up, tie = _emit_twin(keys, prefix, tsh)
        h, th = keys >> tsh, prefix >> tsh
        np.testing.assert_array_equal(up, h > th)
        np.testing.assert_array_equal(tie, h == th)
        assert not (up | tie)[length:].any()  # key 0 never selected
        assert up.sum() == k - need and tie.sum() >= need


def test_variant_names_keep_shipped_cache_keys():
    """The lean flags change __repr__ (the DSL's cache key) only when one is on."""
    pytest.importorskip("cutlass")
    from topk_radix.regs import ClusterRegTopK

    base = ClusterRegTopK("float32", 8, 512, 8, 4, False, False, 8192, True, True)
    assert repr(base) == "ClusterRegTopK_float32_c8_t512_e8_v4_rv0_st0_g8192_w1_x1"
    names = {repr(ClusterRegTopK("float32", 8, 512, 8, 4, False, False, 8192, True, True, *f))
             for f in [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]}
    assert len(names) == 4 and repr(base) not in names
    assert repr(ClusterRegTopK("bfloat16", 8, 512, 8, 8, False, fkey=True)) != repr(
        ClusterRegTopK("bfloat16", 8, 512, 8, 8, False))
    foz = ClusterRegTopK("float32", 8, 512, 8, 4, False, False, 8192, True, True, True, True, True)
    more = {repr(ClusterRegTopK("float32", 8, 512, 8, 4, False, False, 8192, True, True, True, True, True, *f))
            for f in [(False, False, False), (True, False, False), (False, True, False), (False, False, True),
                      (True, True, True)]}
    assert repr(foz) in more and len(more) == 5  # preclear / upscan / emitb: new keys only when on
    # emitb needs emit1 and E <= 16 (at E = 32 it took 127 registers): off, the shipped key
    assert repr(ClusterRegTopK("float32", 8, 512, 32, 4, False, emit1=True, emitb=True)) == repr(
        ClusterRegTopK("float32", 8, 512, 32, 4, False, emit1=True))
    assert repr(ClusterRegTopK("float32", 8, 512, 8, 4, False, emitb=True)) == repr(
        ClusterRegTopK("float32", 8, 512, 8, 4, False))


def test_upscan_packed_find_sum():
    """upscan's find sums (group << 20) | above in one warp sum: above < 2^20 for every geometry."""
    from topk_radix import checks

    for c in checks.CLUSTER_SIZES:
        for t, e in ((1024, 8), (512, 8), (512, 16), (1024, 16), (512, 32)):
            assert c * t * (e + 1) < 1 << 20  # the cluster's keys (slots) bound "above"
    assert (63 << 20 | (1 << 20) - 1) < 1 << 31  # 64 groups (11 bits): no sign bit


@pytest.mark.parametrize("vec", [1, 4, 8])
def test_fkey_one_bound_per_slot(vec):
    """fkey's keep test: ``col < min(L, (n // V) * V)`` for vector slots (``col < L`` for scalar
    copies) equals the kernel's two tests, ``v < n // V`` (or ``col < n``) and ``col < L``."""
    for n in list(range(1, 70)) + [4093, 4096, 8187]:
        cols = np.arange(0, n + 3 * max(vec, 1) + 5)  # slots past the row end exist (clamped loads)
        for length in {0, 1, n // 2, max(n - 1, 0), n} | ({(n // vec) * vec} if vec > 1 else set()):
            if vec > 1:
                real = cols // vec < n // vec
                bound = min(length, (n // vec) * vec)
            else:
                real = cols < n
                bound = length
            np.testing.assert_array_equal(cols < bound, real & (cols < length), err_msg=f"n={n} L={length}")


@pytest.mark.parametrize("warp_emit", [True, False])
def test_emitb_positions(warp_emit):
    """emitb's twin: each warp's above-bin keys, in ballot order (slot, then lane), fill exactly the
    outputs the per-lane order fills, ``[warp base, warp base + warp count)``, both offset paths."""
    rng = np.random.default_rng(5)
    nw, slots = 4, 9
    up = rng.random((nw, 32, slots)) < 0.3  # key > hi
    tie = ~up & (rng.random((nw, 32, slots)) < 0.05)
    packed = up.sum(2) + (tie.sum(2) << 16)
    incl = np.cumsum(packed, axis=1)
    lo0 = 1234  # rank 0's counter before this CTA
    gslot = np.zeros((nw, 32), dtype=np.int64)
    wtot = incl[:, 31]
    for w in range(nw):
        ex = incl[w] - packed[w]
        if warp_emit:  # one atomic per warp, in warp order here
            lo = lo0 + (wtot[:w] & 0xFFFF).sum()
            gslot[w] = lo + (ex & 0xFFFF)
        else:  # CTA scan of the warps' totals, then one atomic
            gslot[w] = lo0 + ((wtot[:w].sum() + ex) & 0xFFFF)
    per_lane, ballot = [], []
    for w in range(nw):
        ex = incl[w] - packed[w]
        run = gslot[w] - (ex & 0xFFFF)
        assert (run == run[0]).all()  # uniform over the warp
        run = run[0]
        for i in range(slots):
            ball = up[w, :, i]
            for lane in np.flatnonzero(ball):
                ballot.append(run + ball[:lane].sum())
            run += ball.sum()
        for lane in range(32):
            per_lane += list(gslot[w, lane] + np.arange(up[w, lane].sum()))
    assert sorted(ballot) == sorted(per_lane) == list(range(lo0, lo0 + up.sum()))
