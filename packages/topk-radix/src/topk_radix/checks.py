"""What the ``radix`` backend runs, and how well: pure functions of a Problem (never raise).

The kernel keeps each row resident in the shared memory of one thread-block
cluster (Hopper), so the row width is bounded by what 16 CTAs can hold. The
cluster size and per-CTA capacity come from static facts only (rows, N, dtype):
``geometry()`` is what ``launch.py`` compiles and launches.
"""

from __future__ import annotations

from topk_core.kernels.backend_base import int32_layout_reason, plain_kernel_reason
from topk_core.kernels.scores import measured_score
from topk_core.protocol import Problem

#: Thread-block clusters and distributed shared memory need sm_90 (Hopper) or newer.
MIN_CAPABILITY = (9, 0)
DTYPES = ("float32", "bfloat16", "float16")
CLUSTER_SIZES = (1, 2, 4, 8, 16)  # 16 is non-portable; H100/H200 allow it
#: Bytes of each CTA's resident slice (the kernel adds ~6 KiB of histograms; 227 KiB max).
SLICE_BYTES = 192 * 1024
#: Slice capacities (elements) compiled; one build serves every N up to C * capacity.
CAPACITIES = (2048, 4096, 8192, 16384, 32768, 49152, 65536, 98304)
#: A CTA's slice aims at this many elements (loads overlap, passes stay short).
TARGET_SLICE = 4096
#: CTAs that fit at once on an H200 (132 SMs, two 1024-thread CTAs each).
RESIDENT_CTAS = 264
MAX_ROWS = 65535  # grid.y
#: The short-row fill's int32 loop needs room for its step (session 43's audit: it wrapped near 2**31).
MAX_K = 1 << 30


def vector_width(dtype: str) -> int:
    """Elements per 16-byte copy."""
    return 4 if dtype == "float32" else 8


def max_capacity(dtype: str) -> int:
    itemsize = 4 if dtype == "float32" else 2
    return max(c for c in CAPACITIES if c * itemsize <= SLICE_BYTES)


def max_n(dtype: str) -> int:
    """Widest row one cluster keeps resident."""
    return CLUSTER_SIZES[-1] * max_capacity(dtype)


def _round_up(x: int, m: int) -> int:
    return (x + m - 1) // m * m


def geometry(rows: int, n: int, dtype: str) -> tuple[int, int, int] | None:
    """``(cluster, capacity, threads)`` for a problem, or None when a row cannot be resident.

    Smallest cluster whose slices reach ``TARGET_SLICE``; more rows than fit at
    once pull the cluster back down (to the smallest that still holds the row).
    """
    vec = vector_width(dtype)
    cap_max = max_capacity(dtype)
    fits = [c for c in CLUSTER_SIZES if _round_up(-(-max(n, 1) // c), vec) <= cap_max]
    if not fits:
        return None
    cluster = next((c for c in fits if -(-n // c) <= TARGET_SLICE), fits[-1])
    while cluster > fits[0] and rows * cluster > RESIDENT_CTAS:
        cluster //= 2
    need = _round_up(-(-max(n, 1) // cluster), vec)
    capacity = next(c for c in CAPACITIES if c >= need)
    threads = 512 if capacity <= 4096 else 1024
    return cluster, capacity, threads


#: The register-resident kernel (regs.py): at most this many elements per CTA (1024 x 16 or 512 x 32).
REG_MAX_SLICE = 16384
#: Widest row the register kernel holds (16 CTAs x 16384).
REG_MAX_N = 16 * REG_MAX_SLICE
#: Threads of the register kernel that run at once (132 SMs x 1024: its CTAs use 64 registers a thread).
REG_WAVE = 132 * 1024


#: fp32 rows of at most 8192 columns, this many rows or fewer: clusters of 8 CTAs of 256 threads, 4 keys each, with
#: push0 and spare (session 14, radix_iter.py RADIX_GEOS, µs, two rounds each, (1, 1024, 8) -> (8, 256, 4): 1x8K
#: 4.70 -> 4.36, 4x8K 4.98 -> 4.55, 8x8K 5.11 -> 4.60, 16x8K 5.17 -> 4.94, 1x4K 4.39 -> 4.16; 32x8K 5.58 -> 5.94
#: slower. Other 1x8K clusters with push0 + spare: (4, 512, 4) 4.41, (4, 256, 8) 4.61, (8, 128, 8) 4.84).
SHORT_C8_MAX_ROWS = 16
#: fp32 rows of 8193-16384 columns, this many rows or fewer: (8, 256, 8) with push0 and spare (session 15,
#: radix_iter.py RADIX_GEOS, µs, two rounds each, the pick before -> (8, 256, 8): 1x12K (4, 512, 8) 5.22 -> 4.83,
#: 1x16K 5.32 -> 4.99, 4x16K 5.54 -> 5.31, 8x16K 5.69 -> 5.47, 16x16K (2, 512, 16) 7.07 -> 5.84, 32x16K 7.86 -> 7.42;
#: 1x16K on (4, 512, 8) with push0 5.22, (16, 256, 4) 5.75).
MID_C8_MAX_ROWS = 32


def _cluster_for(n: int, slice_: int) -> int | None:
    return next((c for c in CLUSTER_SIZES if c * slice_ >= n), None)


def reg_geometry(rows: int, n: int, dtype: str) -> tuple[int, int, int] | None:
    """``(cluster, threads, elems)`` of the register kernel, or None (use ``kernel.py``).

    The first option whose grid fits one wave, in an order that reproduces the best
    geometry measured on each decode cell (NOTES.md, 2026-11-29 sweep): 512 threads
    beat 1024 on the same slice; clusters of 16 only for <= 4 rows (few fit the GPCs
    at once: 8x128K took 21.2 us with C=16, 13.3 with C=8).
    """
    n = max(n, 1)
    if n > REG_MAX_N:
        return None
    if dtype == "float32" and n <= 8192 and rows <= SHORT_C8_MAX_ROWS:
        return 8, 256, 4
    if n <= 8192 and rows * 1024 <= REG_WAVE:
        return 1, 1024, 8
    if dtype == "float32" and n <= 16384 and rows <= MID_C8_MAX_ROWS:
        return 8, 256, 8
    options = []
    if rows <= 8 and n <= 8 * 4096:
        options.append((_cluster_for(n, 4096), 512, 8))
    if rows <= 8 and n <= 8 * 8192:
        options.append((_cluster_for(n, 8192), 1024, 8))
    if rows <= 4 and n <= 16 * 8192:
        options.append((_cluster_for(n, 8192), 512, 16))
    if rows <= 32 and n <= 4 * 8192:  # 32x32K: 11.4 us with gather, (2, 1024, 16) 12.0 (session 4)
        options.append((_cluster_for(n, 8192), 512, 16))
    if n <= 8 * REG_MAX_SLICE:
        options.append((_cluster_for(n, REG_MAX_SLICE), 1024, 16))
    options.append((_cluster_for(n, REG_MAX_SLICE), 512, 32))
    return next((g for g in options if rows * g[0] * g[1] <= REG_WAVE), None)


#: Registers a thread of the register kernel fits in (1024 threads x 64 fill an SM's 65536; (8, 512, 32) uses 64).
REG_BUDGET = 64


def reg_ctas_per_sm(threads: int) -> int:
    """CTAs of the register kernel an SM holds at its register budget."""
    return max(1, 65536 // (REG_BUDGET * threads))


def side_supported(k: int) -> bool:
    """Whether the side kernel (radix_filter's, ``side.py``) takes this k."""
    from topk_radix_filter import checks as side_checks  # pure, no cutlass

    return 1 <= k <= side_checks.MAX_K


def wave_split(rows: int, next_n: int, cluster: int, per_sm: int, active: int, sms: int) -> int:
    """Rows the cluster kernel takes at once; ``side.py`` runs the rest beside them.

    ``active``: clusters the GPU runs at once (0: unknown). All rows when they fit (or nothing is
    known); else the most that fit, in whole requests (multiples of ``next_n``), when the rest fit
    one to an SM on the SMs the wave leaves idle. Session 15, fork_probe.py, H200 (30 clusters of 8
    at 2 CTAs per SM fit at once, 12 SMs idle), µs: 32x128K 20.4-20.7 -> 16.9-17.1, 31x128K 20.1 -> 16.5.
    """
    if active <= 0 or rows <= active:
        return rows
    wave = active // next_n * next_n
    idle = sms - active * (cluster // per_sm)
    if wave == 0 or rows - wave > idle:
        return rows
    return wave


#: Candidate buffer (keys) of the register kernel's gather step (``regs.py``).
GATHER_KEYS = 8192


def reg_variant(rows: int, dtype: str, geo: tuple[int, int, int], next_n: int = 1) -> dict:
    """``regs.py``'s flags for a launch: ``early``, ``fkey``, ``emit1`` and ``nozero`` for fp32;
    ``gather`` and ``warp_emit`` for fp32 grids of at most half a wave of threads (and next_n == 1).

    Measured (NOTES.md, session 4): early alone never slower on fp32 (up to 2.3 us faster),
    0.1 us slower on bf16 (two passes: it can only skip the last). gather + warp_emit faster
    on every fp32 next_n=1 cell of <= 64K threads (1x32K 7.3 -> 6.6 us with early, 8x32K
    8.2 -> 7.0, 8x128K 13.4 -> 12.4), slower on full-wave grids (32x128K 24.7 -> 26.6,
    128x32K) and on 8x64K next_n=2 (9.6 vs 9.2 with early alone; cause not known).
    """
    cluster, threads, _ = geo
    fp32 = dtype == "float32"
    wide = fp32 and next_n == 1 and rows * cluster * threads <= REG_WAVE // 2
    # fkey + emit1 + nozero (lean.py) on fp32, every geometry: all three together faster on every cell
    # measured (session 12, H200, us: 1x8K 5.51 -> 4.97, 1x32K 6.48 -> 6.07, 1x128K 9.13 -> 7.96,
    # 8x32K 6.83 -> 6.41, 8x128K 12.53 -> 10.96, 32x32K 11.34 -> 9.80, 32x128K 25.70 -> 21.49, 1x256K
    # 13.21 -> 11.37); alone, fkey or nozero took 32x128K's (8, 512, 32) past 64 registers (30.9, 31.5).
    # 16-bit rows: not measured.
    # preclear + upscan on fp32 below clusters of 16 (session 12 call 8, us, foz -> both: 1x8K 4.88 -> 4.74,
    # 1x32K 6.02 -> 5.95, 8x128K 10.70 -> 10.35, 32x128K 21.28 -> 20.79, 32x32K 9.81 -> 9.67, 8x32K 6.42 -> 6.40;
    # at C=16 even or slower: 1x128K 7.94 -> 7.97, 1x256K 11.08 -> 11.03). emitb: slower at 8x128K (10.70 -> 11.27).
    pu = fp32 and cluster < 16
    # spare (CTAs past the row's end exit before pass 0) where it measured faster (session 13 call 1, us, two
    # rounds: 1x32K 6.00/5.93 -> 5.92/5.92, 8x32K 6.39 -> 6.35, 32x32K 9.66/9.63 -> 9.57/9.57); slower at C=16
    # (1x128K 7.93 -> 8.50, 1x256K 11.2 -> 11.6), (8, 1024, 16) (8x128K 10.35 -> 10.71) and E=32 (32x128K 20.7 -> 21.6).
    spare = fp32 and geo[:2] in ((8, 512), (4, 512), (8, 256)) and geo[2] <= 16  # (8, 256, 4): session 14
    # push0 (pass 0's group sums pushed to every CTA) on clusters of 8 of half a wave (session 13 call 3, us, two
    # rounds: 1x32K 5.90 -> 5.79, 8x32K 6.36 -> 6.24, 8x128K 10.36/10.40 -> 10.17); slower at C=16 (1x128K 7.94 ->
    # 8.52: the wait before the pushes and their drain cost more than the local hop saves) and on full-wave grids
    # (32x128K 20.8 -> 21.4, 128x32K 16.5 -> 16.6); 32x32K (C=4) even.
    push0 = fp32 and wide and cluster == 8
    # relaxed_exit (the exit barrier's arrive without a release fence) on every fp32 cluster (session 13, call 10,
    # us: 1x128K 7.94 -> 7.78, 1x32K 5.81 -> 5.66, 8x128K 10.17 -> 10.01, 32x128K 20.7 -> 20.5, 1x256K 11.1 -> 10.9).
    return {"gather": GATHER_KEYS if wide and cluster > 1 else 0, "warp_emit": wide, "early": fp32,
            "fkey": fp32, "emit1": fp32, "nozero": fp32, "preclear": pu, "upscan": pu, "spare": spare,
            "push0": push0, "relaxed_exit": fp32 and cluster > 1}


def supports(p: Problem) -> str | None:
    """None when the kernel runs ``p`` exactly, else a short reason."""
    try:
        reason = plain_kernel_reason(p, MIN_CAPABILITY, "thread-block clusters (compute capability >= 9.0)")
        if reason:
            return reason
        if p.k < 1 or p.next_n < 1 or p.compress_ratio < 1:
            return "needs k, next_n and compress_ratio >= 1"
        if p.k > MAX_K:
            return f"k={p.k} exceeds {MAX_K}"
        if p.rows > MAX_ROWS:
            return f"rows={p.rows} exceeds {MAX_ROWS} (one cluster per row on grid.y)"
        if p.n > max_n(p.dtype):
            return (f"N={p.n} does not fit resident in one 16-CTA cluster "
                    f"(max {max_n(p.dtype)} {p.dtype} columns)")
        return int32_layout_reason(p)  # the side rows run radix_filter's kernel (int32 stride)
    except Exception as exc:  # a checker never raises
        return f"cannot judge problem: {type(exc).__name__}: {exc}"


#: torch.topk (masked) µs / radix µs, fp32 k=2048, H200, 2026-12-05: radix 0.6.0 (side rows, (8, 256, 8)) from the
#: committed one-process runs benchmarks/results/2026-12-05-cuda-decode-session45.json and -dsa-session45.json (the
#: DSA run wins where cells repeat; written by shared/device/update_scores.py).
MEASURED_SPEEDUP = {
    (1, 8192): 10.46, (1, 32768): 9.44, (1, 131072): 8.21, (1, 262144): 6.82, (8, 32768): 9.63, (8, 131072): 8.47,
    (32, 32768): 8.74, (32, 131072): 8.19, (128, 32768): 8.56, (128, 131072): 3.32, (512, 32768): 3.87,
    (512, 131072): 3.26, (1024, 65536): 3.65, (4096, 8192): 4.12,
}


def score(p: Problem) -> float:
    """Estimated speed-up over torch.topk (masked): the nearest measured cell.

    Nearest in (log2 rows, log2 N), halved for every factor of 2 beyond 2x away
    on either axis (``topk_core.kernels.scores``). Unmeasured shapes whose clusters
    do not fit the GPU at once score 0.9, below the portable ``radix_cutlass`` (1.0):
    many rows belong to one-CTA-per-row kernels.
    """
    if supports(p) is not None:
        return 0.0
    speedup = measured_score(MEASURED_SPEEDUP, p)
    geo = geometry(p.rows, p.n, p.dtype)
    if geo is not None and p.rows * geo[0] > RESIDENT_CTAS and (p.rows, p.n) not in MEASURED_SPEEDUP:
        speedup = min(speedup, 0.9)
    return round(speedup, 3)
