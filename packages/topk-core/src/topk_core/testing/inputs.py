"""Input generators for tests and benchmarks. Never zeros: every kind is random.

``make_logits(kind, rows, n, dtype, device, seed, k)`` draws one of ``KINDS``; the
``k`` argument lets plateau inputs straddle the k-th value.
"""

from __future__ import annotations

import torch

from ..keys import valid_lengths

KINDS = ("randn", "int_ties", "plateau", "inf", "nan", "sorted", "reversed", "huge", "zeros_denormals", "constant")
#: ``constant`` rows, in turn: one value across the whole row (a bracket collapses to one key, every column ties).
CONSTANT_ROW_VALUES = (1.5, float("-inf"), float("inf"), float("nan"), -2.0, "denormal", "-nan")


def _gen(seed: int) -> torch.Generator:
    g = torch.Generator(device="cpu")
    g.manual_seed(seed)
    return g


def make_logits(kind: str, rows: int, n: int, dtype=torch.float32, device="cpu", seed: int = 0,
                k: int = 16) -> torch.Tensor:
    g = _gen(seed)
    x = torch.randn(rows, n, generator=g, dtype=torch.float32)
    if kind == "randn":
        pass
    elif kind == "int_ties":  # few distinct values: ties everywhere, including at the k-th
        x = torch.randint(-4, 5, (rows, n), generator=g).to(torch.float32)
    elif kind == "plateau":  # ReLU scores: a 0.0 plateau straddling the k-th value
        positives = max(k // 2, 1)
        x = torch.zeros(rows, n)
        for r in range(rows):
            cols = torch.randperm(n, generator=g)[: min(positives, n)]
            x[r, cols] = torch.rand(cols.numel(), generator=g) + 0.5
        x[torch.rand(rows, n, generator=g) < 0.1] = -0.0
    elif kind == "inf":
        u = torch.rand(rows, n, generator=g)
        x[u < 0.05] = float("inf")
        x[(u >= 0.05) & (u < 0.15)] = float("-inf")
    elif kind == "nan":
        u = torch.rand(rows, n, generator=g)
        x[u < 0.03] = float("nan")
        neg_nan = torch.tensor(float("nan")).neg()  # a NaN with the sign bit set
        x[(u >= 0.03) & (u < 0.05)] = neg_nan
        x[(u >= 0.05) & (u < 0.08)] = float("inf")
        x[(u >= 0.08) & (u < 0.12)] = float("-inf")
    elif kind == "sorted":
        x = torch.sort(x, dim=1).values
    elif kind == "reversed":
        x = torch.sort(x, dim=1, descending=True).values
    elif kind == "huge":
        top = torch.finfo(dtype).max
        x = (torch.rand(rows, n, generator=g) * 2 - 1) * top
        x[torch.rand(rows, n, generator=g) < 0.2] = top
    elif kind == "zeros_denormals":  # ±0 and denormals near the k-th value, never all zeros
        tiny = torch.finfo(dtype).tiny
        x = torch.randint(-3, 4, (rows, n), generator=g).to(torch.float32) * (tiny / 4)
        x[torch.rand(rows, n, generator=g) < 0.3] = -0.0
        x[torch.rand(rows, n, generator=g) < 0.02] = 1.0
    elif kind == "constant":  # every column of a row equal (fully masked rows, saturated scores)
        x = torch.empty(rows, n)
        for r in range(rows):
            v = CONSTANT_ROW_VALUES[(r + seed) % len(CONSTANT_ROW_VALUES)]
            if v == "denormal":
                v = torch.finfo(dtype).tiny / 2
            elif v == "-nan":
                v = torch.tensor(float("nan")).neg()  # a tensor keeps the sign bit (a Python float may not)
            x[r] = v
    else:
        raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")
    return x.to(dtype).to(device)


def make_seq_lens(requests: int, n: int, *, next_n: int = 1, compress_ratio: int = 1, seed: int = 0,
                  mode: str = "mixed", device="cpu") -> torch.Tensor:
    """int32 seq_lens. ``mixed`` includes 0, negative-numerator, short, exact, overlong;
    ``uniform`` is uniform in [N/2, N] columns (the benchmark's DSA workload); ``extreme`` cycles through the int32
    ends (-2**31, where ``seq_len - next_n + 1`` wraps in int32 arithmetic, and 2**31 - 1) and the edges next to
    them, with 0, -1 and the exact length between."""
    g = _gen(seed + 7919)
    full = n * compress_ratio + next_n - 1  # the length whose last row is exactly N columns
    if mode == "uniform":
        cols = torch.randint(max(n // 2, 1), n + 1, (requests,), generator=g)
        lens = cols * compress_ratio + next_n - 1
    elif mode == "mixed":
        lens = torch.randint(0, full + 1, (requests,), generator=g)
        specials = [0, -5, 1, next_n - 1, full, full + 1000, 2 * full + 3, full // 2]
        for i, v in enumerate(specials[:requests]):
            lens[(i * 7) % requests] = v
    elif mode == "full":
        lens = torch.full((requests,), full)
    elif mode == "extreme":
        low, high = -(1 << 31), (1 << 31) - 1
        ends = [low, full, low + 1, high, -1, low + next_n - 1, 0, high - next_n + 1, low + next_n]
        lens = torch.tensor([ends[i % len(ends)] for i in range(requests)], dtype=torch.int64)
    else:
        raise ValueError(f"mode: expected uniform, mixed, full or extreme, got {mode!r}")
    return lens.to(torch.int32).to(device)


#: ``as_layout``'s layouts: (columns before the row, extra columns per row).
LAYOUTS = {"padded": (0, 16), "unaligned": (1, 5)}


def as_layout(x: torch.Tensor, layout: str) -> torch.Tensor:
    """``x`` as rows of a wider buffer whose other columns are NaN (which outranks every value, so a read outside a
    row shows): ``padded`` rows 16 columns apart beyond N (16-byte aligned where the dtype allows), ``unaligned`` one
    column in with a stride of N + 5 (no row 16-byte aligned); ``contiguous`` returns ``x``."""
    if layout == "contiguous":
        return x
    if layout not in LAYOUTS:
        raise ValueError(f"layout: expected contiguous or one of {sorted(LAYOUTS)}, got {layout!r}")
    shift, pad = LAYOUTS[layout]
    rows, n = x.shape
    buf = torch.full((rows, n + pad), float("nan"), dtype=x.dtype, device=x.device)
    buf[:, shift:shift + n] = x
    return buf[:, shift:shift + n]


def poison_like(t: torch.Tensor) -> torch.Tensor:
    """Fill an output with a value no correct call writes there."""
    if t.dtype == torch.int32:
        return t.fill_(-123456789)
    # A NaN payload that no generator makes, so an unwritten slot never matches by luck.
    if t.dtype == torch.float32:
        t.view(torch.int32).fill_(0x7FBADBAD)
    else:
        t.view(torch.int16).fill_(0x7FAB if t.dtype == torch.bfloat16 else 0x7EAB)
    return t


def poisoned_call(logits: torch.Tensor, seq_lens: torch.Tensor, k: int, *, values: bool = True, **fields):
    """A ``Call`` for ``logits`` with poisoned index (and value) outputs, for tests that launch
    one backend path directly; ``fields`` are the other ``Call`` fields (transform, row_starts ...)."""
    from ..protocol import Call

    rows = logits.shape[0]
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device=logits.device))
    vals = poison_like(torch.empty(rows, k, dtype=logits.dtype, device=logits.device)) if values else None
    return Call(logits=logits, seq_lens=seq_lens, top_k=k, indices=idx, values=vals, **fields)


#: ``paged_requests``: page-table row ``r`` maps column ``c`` to ``r * PAGE_STRIDE + c``.
PAGE_STRIDE = 100000


def clamped_windows(device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(logits, row_starts, seq_lens)``: six fp32 rows of 400 whose windows start before, at,
    inside and past the row, some longer than it (every one must be clamped to ``[0, N]``)."""
    x = make_logits("randn", 6, 400, torch.float32, device, seed=5)
    starts = torch.tensor([-50, 0, 399, 400, 1000, 123], dtype=torch.int32, device=device)
    lens = torch.tensor([400, 400, 400, 5, 7, 100000], dtype=torch.int32, device=device)
    return x, starts, lens


def ragged_decode_rows(device) -> tuple:
    """``(logits, seq_lens, index_offsets, next_n, compress_ratio, k)``: four fp16 requests of three
    query rows (next_n 3, compress_ratio 4) over 200 columns, lengths 0, past N, inside and 2, and a
    random ragged offset per row."""
    next_n, ratio, n, k = 3, 4, 200, 16
    rows = 4 * next_n
    x = make_logits("randn", rows, n, torch.float16, device, seed=8)
    lens = torch.tensor([0, 803, 400, 2], dtype=torch.int32, device=device)
    offsets = torch.randint(0, 10**6, (rows,), dtype=torch.int32, generator=_gen(8)).to(device)
    return x, lens, offsets, next_n, ratio, k


def random_page_tables(requests: int, n: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """``(table, inverse)`` on the CPU: each request's row a random injection of ``n`` local columns into
    ``[0, 4n)`` (int32; neither the identity nor affine), and its inverse (int64, -1 where no column maps)."""
    g = _gen(seed)
    table = torch.stack([torch.randperm(4 * n, generator=g)[:n] for _ in range(requests)]).to(torch.int32)
    inverse = torch.full((requests, 4 * n), -1, dtype=torch.int64)
    for r in range(requests):
        inverse[r, table[r].long()] = torch.arange(n)
    return table, inverse


def local_columns(indices: torch.Tensor, inverse: torch.Tensor, request_of_row: torch.Tensor) -> torch.Tensor:
    """Page-table outputs mapped back to local columns through ``random_page_tables``' inverse (CPU int64):
    -1 slots stay -1, and an entry outside its row's request maps to -1 too (callers assert there is none)."""
    idx = indices.cpu().long()
    rows = request_of_row.cpu().long()[:, None].expand_as(idx)
    return torch.where(idx >= 0, inverse[rows, idx.clamp(0, inverse.shape[1] - 1)], -1)


def paged_requests(device) -> tuple[torch.Tensor, ...]:
    """``(logits, seq_lens, cu_seqlens_q, page_table, request_of_row)``: seven fp32 rows of 300 in
    five requests, three of them empty; the table's entries name their request (``PAGE_STRIDE``)."""
    n = 300
    x = make_logits("randn", 7, n, torch.float32, device, seed=6)
    lens = torch.randint(0, n + 10, (7,), dtype=torch.int32, generator=_gen(6)).to(device)
    cu = torch.tensor([0, 0, 3, 3, 3, 7], dtype=torch.int32, device=device)
    req = torch.tensor([1, 1, 1, 4, 4, 4, 4], device=device)
    table = (torch.arange(n)[None, :] + PAGE_STRIDE * torch.arange(5)[:, None]).to(torch.int32).to(device)
    return x, lens, cu, table, req


#: ``make_hint`` modes: the true top-k, a previous decode step's (noisy, corrupted), random, all -1.
HINT_MODES = ("exact", "previous", "random", "empty")
#: Noise of the simulated previous step, as a fraction of each row's spread of finite values.
HINT_NOISE = 0.05


def make_hint(logits: torch.Tensor, seq_lens: torch.Tensor, k: int, *, next_n: int = 1, compress_ratio: int = 1,
              mode: str = "previous", seed: int = 0, noise: float = HINT_NOISE) -> torch.Tensor:
    """A ``pre_idx`` hint: int32 ``[rows // next_n, k]``, contiguous, on ``logits.device``.

    Request ``i``'s hint ranks row ``i * next_n`` over its valid columns (the API's rules). ``exact``: that
    row's top-k, argmax first, -1 padded; ``previous``: the top-k of a noisy copy (a simulated previous decode
    step: gaussian noise of ``noise`` x the row's deviation; the default, 0.05, keeps ~93-97% of a randn row's top
    2048 of 8K-1M columns) with about 1% of each row's entries corrupted (-1, out of range, duplicated); ``random``:
    uniform in ``[-1, n + 5)``; ``empty``: all -1. Deterministic for a given seed.
    """
    if mode not in HINT_MODES:
        raise ValueError(f"mode: expected one of {HINT_MODES}, got {mode!r}")
    if not noise >= 0:
        raise ValueError(f"noise: expected a float >= 0, got {noise!r}")
    rows, n = logits.shape
    shape = (rows // next_n, k)
    if mode == "empty":
        return torch.full(shape, -1, dtype=torch.int32, device=logits.device)
    if mode == "random":  # the same draws the kit has always used for hint=True
        return torch.randint(-1, n + 5, shape, generator=_gen(seed), dtype=torch.int32).to(logits.device)
    first = logits[::next_n]  # the first query row of each request
    lengths = valid_lengths(seq_lens.to(logits.device), rows, n, next_n, compress_ratio)[::next_n]
    if mode == "exact":
        return _exact_top_k(first, lengths, k).to(torch.int32).contiguous()
    hint = _exact_top_k(_previous_step(first, seed, noise), lengths, k)
    return _corrupt(hint.cpu(), lengths.cpu(), n, seed).to(torch.int32).to(logits.device).contiguous()


def _exact_top_k(rows: torch.Tensor, lengths: torch.Tensor, k: int) -> torch.Tensor:
    """The reference backend's top-k (int64, sorted, -1 padded) of ``rows[r, :lengths[r]]``."""
    from ..protocol import Call
    from ..reference import select_local

    # With next_n 1 and compress_ratio 1 a row's seq_len is its valid length.
    call = Call(logits=rows, seq_lens=lengths, top_k=k, indices=rows.new_empty(0, dtype=torch.int32))
    return select_local(call)


def _previous_step(x: torch.Tensor, seed: int, noise_scale: float = HINT_NOISE) -> torch.Tensor:
    """``x`` plus seeded gaussian noise of ``noise_scale`` x each row's std of finite values; non-finite kept.

    Statistics in float64 (the ``huge`` kind overflows float32 squares); results clamped to the dtype's
    finite range, so a finite value stays finite.
    """
    wide = x.to(torch.float64)
    finite = torch.isfinite(wide)
    count = finite.sum(dim=1, keepdim=True).clamp(min=1)
    mean = torch.where(finite, wide, 0.0).sum(dim=1, keepdim=True) / count
    std = (torch.where(finite, (wide - mean) ** 2, 0.0).sum(dim=1, keepdim=True) / count).sqrt()
    noise = torch.randn(x.shape, generator=_gen(seed + 104729), dtype=torch.float32).to(x.device, torch.float64)
    top = torch.finfo(x.dtype).max
    moved = (wide + noise_scale * std * noise).clamp(-top, top).to(x.dtype)
    return torch.where(finite, moved, x)


def _corrupt_count(k: int) -> int:
    """About 1% of a hint row, at least one entry from k = 8 on."""
    return max(1, round(k / 100)) if k >= 8 else 0


def _corrupt(hint: torch.Tensor, lengths: torch.Tensor, n: int, seed: int) -> torch.Tensor:
    """Corrupt ``_corrupt_count(k)`` slots of each row (CPU int64) in turn: -1, an index in ``[L, n + 5)``, a
    copy of an uncorrupted slot of the same row (so it really is a duplicate)."""
    requests, k = hint.shape
    m = _corrupt_count(k)
    if m == 0 or requests == 0:
        return hint
    g = _gen(seed + 1299709)
    perm = torch.rand(requests, k, generator=g).argsort(dim=1)
    slots, sources = perm[:, :m], perm[:, m:2 * m]  # disjoint: sources are never corrupted
    kind = (torch.arange(requests)[:, None] + torch.arange(m)[None, :]) % 3
    low = lengths[:, None]
    beyond = low + (torch.rand(requests, m, generator=g, dtype=torch.float64) * (n + 5 - low)).long()
    new = torch.where(kind == 0, -1, torch.where(kind == 1, beyond, hint.gather(1, sources)))
    return hint.clone().scatter_(1, slots, new)
