"""Host side of ``sgl_fused``: launch configuration, scratch, compile cache, launch.

No host reads of device data: everything here depends only on shapes, dtypes and the
device, so a call is CUDA-graph capturable after one eager call per geometry.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import os
from dataclasses import dataclass, replace

import torch

from topk_core import workspace as ws
from topk_core.kernels.backend_base import triton_interpreting
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

from .warp_configs import (  # noqa: F401 (re-exported: launch is where callers and tests find them)
    _NARROW_BRACKET,
    LATE_ALL_K,
    RESIDENT,
    RESIDENT_16,
    RESIDENT_MAX_KEYS_PER_THREAD,
    RESIDENT_MAX_ROWS_PER_SM,
    RESIDENT_N,
    RESIDENT_WIDE,
    RESIDENT_WIDE_MAX_N,
    WARP_ALL_CANDS_MID_AHEAD,
    WARP_ALL_CANDS_MID_CBLOCK,
    WARP_ALL_CANDS_MIN_RATIO,
    WARP_FEW,
    WARP_FEW_LARGE,
    WARP_FEW_LARGE_16,
    WARP_FEW_LARGE_AHEAD_F32,
    WARP_FEW_LARGE_GUESS,
    WARP_FEW_LARGE_N,
    WARP_FEW_LARGE_PAGE,
    WARP_FEW_LARGE_SAMPLE,
    WARP_FEW_LARGE_SELECT,
    WARP_FEW_LONG,
    WARP_FEW_LONG_PAGE,
    WARP_FEW_PAGE,
    WARP_FEW_SAMPLE,
    WARP_MANY,
    WARP_MANY_PAGE,
    WARP_MANY_SMALL,
    WARP_MANY_SMALL_N,
    WARP_MANY_SMALL_PAGE,
    WARP_MAX_K,
    WARP_MAX_SCRATCH,
    WARP_MID,
    WARP_MID_LARGE,
    WARP_MID_LARGE_MANY,
    WARP_MID_LARGE_N,
    WARP_MID_LARGE_PAGE,
    WARP_MID_LARGE_PAGE_MANY,
    WARP_MID_PAGE,
    WARP_MID_PAGE_MANY,
    WARP_MIN_N,
    WARP_MIN_RATIO,
    WARP_MIN_ROWS_PER_SM,
    WARP_NARROW_BRACKET_BITS,
    WARP_NARROW_BRACKET_MAX_N,
    WARP_PAGE_AHEAD,
    WARP_SAMPLE_RUN,
    WARP_SELECT_SECANT,
    ResidentConfig,
    WarpConfig,
    all_cands_config,
    all_k_block,
    resident_config,
    resident_constexprs,
    resident_row,
    warp_constexprs,
)

OWNER = "sgl_fused"
TRANSFORM_CODES = {"none": 0, "page_table": 1, "ragged": 2}
KEY_BITS = {torch.float32: 32, torch.bfloat16: 16, torch.float16: 16}
#: Two-pass candidate capacity per program (key + column, 8 bytes each). Beyond it, the
#: deeper digits re-read the row instead (wide plateaus, huge rows).
CAP = 4096
#: The one-read stream path needs scratch for k + a chunk; it is used for N >= STREAM_MIN_RATIO * k
#: and k <= STREAM_MAX_K (bounding scratch to 8 * (2k + 2 BLOCK) bytes per program).
STREAM_MIN_RATIO = 8
STREAM_MAX_K = 8192
#: Candidate capacity of the fast path (its bracket holds ~2 x 5 sigma sample ranks: ~5K of 128K).
FAST_CAP = 8192
#: Capacity of the fast path's per-thread lists (see ``slots_for``).
FAST_SLOTS = 64
#: ... and for N >= STREAM_MIN_N: its sampled threshold needs rows of 4 chunks (4 x 4096).
STREAM_MIN_N = 16384
#: Default path: two launches (``split.py``) rather than one program per row (``kernel.py``).
SPLIT = True
#: ... except where ``pick_warp`` names a ``WarpConfig`` (one launch, small programs per row, ``warp.py``);
#: TOPK_SGL_WARP=0 turns that off (an A/B switch for a whole process, e.g. a benchmark run).
WARP = os.environ.get("TOPK_SGL_WARP", "1") != "0"
#: The transform whose kernel every call picks (``picking_as``; None: the call's own), per thread and task. Issue 6
#: bounds the fused transform's cost against the same kernel with the identity transform, which ``topk bench --sgl``
#: times this way.
PICK_AS: contextvars.ContextVar[str | None] = contextvars.ContextVar("topk_sgl_fused_pick_as", default=None)


@contextlib.contextmanager
def picking_as(transform: str):
    """Within it, every call runs the kernel picked for ``transform`` (its own transform applied as usual)."""
    if transform not in TRANSFORM_CODES:
        raise ValueError(f"transform: expected one of {sorted(TRANSFORM_CODES)}, got {transform!r}")
    token = PICK_AS.set(transform)
    try:
        yield
    finally:
        PICK_AS.reset(token)


@dataclass(frozen=True)
class Config:
    """Launch shape: BLOCK, num_warps, stream and maxnreg change the code; progs_per_sm only the grid."""

    block: int
    num_warps: int
    progs_per_sm: int
    stream: bool = False
    maxnreg: int | None = None  # cap so that progs_per_sm programs fit an SM's 64K registers
    atomic: bool = True  # scratch/output slots of sparse passes by atomic counters (else by block scan)
    fast: bool = False  # sampled bracket + one read (``_fast``); the path above is its exact fallback
    sample: int = 512  # columns sampled for the bracket (power of two)
    cblock: int = 1024  # candidate chunk of the fast path's final select (power of two)
    fast_block: int = 0  # columns per chunk of the fast path's pass (0: block); a multiple of 32 x num_warps


def pick_config(rows: int, n: int, k: int, sm_count: int) -> Config:
    """Launch shape from static facts (see NOTES.md for the measurements behind it).

    Every config runs the fast path (a sampled bracket, one read of the row, an exact select
    among the few candidates) with an exact fallback when the bracket misses: the one-read
    stream path for long rows (N >= 8k and N >= 16K), else the two-pass path. Long rows
    and few rows: one program of 16 warps per SM; many short rows: several smaller programs
    per SM so that one row's latency hides behind another's. The interpreter gets small
    chunks so that CPU tests cover the multi-chunk and fallback paths.
    """
    stream = n >= STREAM_MIN_RATIO * k and k <= STREAM_MAX_K and (n >= STREAM_MIN_N or interpreting())
    if interpreting():
        return Config(block=64, num_warps=1, progs_per_sm=1, stream=stream, fast=True, sample=64, cblock=64)
    # Bigger samples (4096, 2048) measured slower here: 128x128K 107 -> 167 µs (register pressure
    # of the one big kernel; NOTES.md). The two-launch path (``pick_split``) is the default.
    if stream:
        fast = Config(block=4096, num_warps=16, progs_per_sm=1, stream=True, fast=True, sample=1024, cblock=2048,
                      fast_block=8192)
        plain = Config(block=4096, num_warps=16, progs_per_sm=1, stream=True)
    elif rows <= sm_count // 2:
        fast = Config(block=4096, num_warps=16, progs_per_sm=1, fast=True, sample=512, cblock=1024, fast_block=8192)
        plain = Config(block=4096, num_warps=16, progs_per_sm=1)
    else:
        fast = Config(block=1024, num_warps=4, progs_per_sm=4, maxnreg=128, fast=True, sample=512, cblock=1024,
                      fast_block=2048)
        plain = Config(block=2048, num_warps=8, progs_per_sm=2, maxnreg=128)
    for sample in (fast.sample, 2 * fast.sample, 4 * fast.sample):  # a bigger sample narrows the bracket
        if expected_candidates(n, k, sample) <= cap_for(fast, k):
            return replace(fast, sample=sample)
    return plain  # large k: the bracket would rarely fit the candidate scratch


def expected_candidates(n: int, k: int, sample: int) -> float:
    """A generous bound on the keys inside the fast path's bracket (~5 sigma of ``sample``
    ranks either side, scaled to ``n`` columns), plus a safety factor of 1.2."""
    return 1.2 * (10.0 * math.sqrt(k * n / sample) + 4.0 * n / sample)


def cap_for(config: Config, k: int) -> int:
    """Scratch entries per program. The interpreter gets small ones, so that the CPU tests
    reach the two-pass overflow path and the stream compactions."""
    if interpreting():
        return 2 * k + 2 * config.block if config.stream else 256
    if config.stream:
        return max(CAP, 2 * k + 2 * config.block, FAST_CAP if config.fast else 0)
    return max(CAP, FAST_CAP) if config.fast else CAP


interpreting = triton_interpreting  # TRITON_INTERPRET=1: CPU tensors through Triton's interpreter


@functools.cache
def _sm_count(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


def sm_count(device: torch.device) -> int:
    if device.type != "cuda" or interpreting():
        return 4
    return _sm_count(device.index if device.index is not None else torch.cuda.current_device())


def slots_for(config: Config, n: int) -> int:
    """Capacity of each of the fast path's per-thread lists (slot scratch rows): every column a
    thread can see (so no list can overflow) up to FAST_SLOTS (beyond it, a thread would need
    more than FAST_SLOTS keys >= the bracket: for random rows of 128K (~7 expected per thread)
    about 1e-20; an overflow runs the exact fallback)."""
    if not config.fast:
        return 0
    return max(1, min(-(-n // threads(config)), FAST_SLOTS))


def threads(config: Config) -> int:
    return 32 * config.num_warps


def fast_block(config: Config) -> int:
    return config.fast_block or config.block


def scratch_bytes(grid: int, cap: int, slots: int = 0, threads: int = 0) -> int:
    """Per program: ``cap`` keys, ``cap`` columns, 32 words (counters), then the fast path's
    ``slots x threads`` keys and columns."""
    return grid * (2 * cap + 32 + 2 * slots * threads) * 4


def _settle_empty(call: Call) -> bool:
    """Calls with no rows or no columns need no kernel: True once their outputs are written
    (an empty tensor may have no device pointer to pass)."""
    rows, n = call.logits.shape
    if rows and not n:
        call.indices.fill_(-1)
        if call.values is not None:
            call.values.fill_(float("-inf"))
    return rows == 0 or n == 0


def _facts(call: Call):
    """``(logits, rows, n, k, device)`` of a validated call: what every launch starts from."""
    logits = call.logits
    rows, n = logits.shape
    return logits, rows, n, call.top_k, logits.device


def _run_cached(key, fn, args, kwargs) -> None:
    """Launch ``fn[grid](*args, **kwargs)``; the first launch of a variant compiles it, timed
    and recorded by ``compile_cached`` under ``key``."""
    ran = []

    def build():
        fn(*args, **kwargs)
        ran.append(True)
        return fn

    compile_cached(key, build)
    if not ran:
        fn(*args, **kwargs)


def _transform_operands(call: Call):
    """``(code, starts, outputs)`` for the kernels: the transform's code, the row_starts operand,
    and the arguments every k-slot writer takes in this order (indices, values, has_values,
    page, page stride, cu, has_cu, requests, offsets). Tensors a variant does not read are stood
    in for by ones it may be handed safely (never dereferenced)."""
    transform = TRANSFORM_CODES[call.transform]
    assert call.indices.is_contiguous() and (call.values is None or call.values.is_contiguous())
    page = call.page_table if transform == 1 else call.indices
    has_cu = transform == 1 and call.cu_seqlens_q is not None
    cu = call.cu_seqlens_q if has_cu else call.seq_lens
    offsets = call.index_offsets if transform == 2 else call.seq_lens
    starts = call.row_starts if call.row_starts is not None else call.seq_lens
    values = call.values
    outputs = (call.indices, values if values is not None else call.logits, int(values is not None),
               page, page.stride(0), cu, int(has_cu), (cu.numel() - 1) if has_cu else 0, offsets)
    return transform, starts, outputs


def _options(num_warps: int, maxnreg: int | None) -> dict:
    """Triton launch options (the register cap is not an interpreter option)."""
    opts = dict(num_warps=num_warps)
    if maxnreg and not interpreting():
        opts["maxnreg"] = maxnreg
    return opts


def _cache_key(path: tuple, dtype: torch.dtype, const: dict, opts: dict, device: torch.device) -> tuple:
    """``compile_cached``'s key of one kernel variant."""
    return (OWNER, *path, str(dtype), tuple(sorted(const.items())), tuple(sorted(opts.items())), interpreting(),
            device.type)


def launch(call: Call, config: Config | SplitConfig | WarpConfig | ResidentConfig | None = None,
           cap: int | None = None) -> None:
    """Run the fused kernel(s) for one validated call (outputs already allocated): the resident or warp
    path where ``pick_warp`` names a config (or one is passed), else the two-launch path (``SPLIT``);
    the one-kernel path for a ``Config``."""
    if config is None and cap is None and WARP:
        rows, n = call.logits.shape
        config = pick_warp(rows, n, call.top_k, sm_count(call.logits.device), PICK_AS.get() or call.transform,
                           call.logits.element_size())
    if isinstance(config, WarpConfig):
        return launch_warp(call, config)
    if isinstance(config, ResidentConfig):
        return launch_resident(call, config)
    if isinstance(config, SplitConfig) or (config is None and cap is None and SPLIT):
        return launch_split(call, config)
    from . import kernel  # imports triton; kept out of the entry point

    if _settle_empty(call):
        return
    logits, rows, n, k, device = _facts(call)
    sms = sm_count(device)
    config = config or pick_config(rows, n, k, sms)
    cap = cap or cap_for(config, k)
    if config.fast and fast_block(config) % threads(config):
        raise ValueError(f"config: the fast path's chunk must be a multiple of 32 x num_warps, got {config}")
    if config.stream and cap < k + config.block:
        raise ValueError(f"cap: the stream path needs at least k + BLOCK = {k + config.block}, got {cap}")
    grid = min(rows, sms * config.progs_per_sm)
    slots = slots_for(config, n)
    nbytes = scratch_bytes(grid, cap, slots, threads(config))
    cand = ws.scratch(OWNER, device, nbytes, call.workspace)[:nbytes].view(torch.int32)
    transform, starts, outputs = _transform_operands(call)
    constexprs = dict(KEY_BITS=KEY_BITS[logits.dtype], BLOCK=config.block, TRANSFORM=transform,
                      STREAM=config.stream, ATOMIC=config.atomic, FAST=config.fast, SAMPLE=config.sample,
                      CBLOCK=config.cblock, THREADS=threads(config), FBLOCK=fast_block(config))
    options = _options(config.num_warps, config.maxnreg)
    key = _cache_key((), logits.dtype, constexprs, options, device)
    args = (logits, logits.stride(0), n, rows,
            call.seq_lens, call.next_n, call.compress_ratio, starts, int(call.row_starts is not None),
            k, *outputs, cand, cap, slots)
    _run_cached(key, kernel.sgl_topk_kernel[(grid,)], args, {**constexprs, **options})


@dataclass(frozen=True)
class SplitConfig:
    """The two-launch path (``split.py``): filter programs of ``warps`` over chunks of
    ``chunk`` columns (tiles of ``r`` x 256 x ``warps``), then one select program of
    ``select_warps`` per row over candidate chunks of ``cblock`` (the exact fallback in
    chunks of ``block``)."""

    chunk: int
    warps: int = 4
    r: int = 1
    sample: int = 1024
    select_warps: int = 8
    cblock: int = 2048
    block: int = 1024
    cap: int = 4096
    maxnreg: int | None = None  # filter register cap, so that two programs share an SM
    bisect: bool = False  # the select's candidates by bisection (``bisect_select``), as the warp path's
    early: bool = False  # the filter's first tile loaded before the bracket (``split.filter_kernel``'s EARLY)
    sbits: int = 1  # with bisect: 0 the bound by interpolation (``bisect_select._secant_rel``), else 1 bit a step
    # The filter's bracket: by bisection on this many key prefix bits (``bisect_select._bracket_bisect``; 16: the same
    # bounds as the two histograms of ``kernel._bracket``, which 0 selects). ncu (session 20) put those histograms at
    # 44% of the filter's instructions at 8x32K and 54% at 32x128K (every program of a row computes the bracket).
    # sgl10_bench.py "pickbb", two rounds, µs v2 / page table, histograms -> bisection on 16 bits (12 bits): 8x32K
    # 20.8 / 22.6 -> 18.2 / 20.1 (22.4 / 24.6), 32x128K 54.7 / 57.7 -> 47.0 / 49.9 (48.5 / 51.5), 1x128K 23.5 / 25.5
    # -> 21.0 / 23.0 (20.1 / 22.1), 16x128K 34.6 / 37.1 -> 31.2 / 34.0 (30.9 / 33.6), 32x32K 23.3 / 25.5 -> 21.1 / 23.3.
    bracket_bits: int = 16
    # With bracket_bits, > 0: the bounds guessed from the sample's moments first, this many square roots of the
    # ranks past them (``bisect_select._bracket_guess``, two reductions); the bisection only when the sample rejects
    # them (session 22).
    guess: float = 0.0
    # With bracket_bits: the sample in runs of this many adjacent columns (``WarpConfig.sample_run``; session 26).
    sample_run: int = 1
    # Its runs loaded as vectors (``WarpConfig.sample_vec``).
    sample_vec: bool = False
    page_kb: int = 0  # the select's page-table pass in blocks of this many slots (0: ``block``; see late_block)
    # The page table's rows streamed beside the scores by the filter, which lists page entries instead of columns
    # (no pass over the k slots at the end; ``WarpConfig.page_stream``, session 28). Needs no values, a 16-byte aligned
    # table and a stride divisible by 4 (``launch_split`` takes the late pass otherwise).
    page_stream: bool = False
    # With page_stream and early: the page tile (and its row pointer) loaded after the bracket, not beside the early
    # score tile (session 29: ptxas puts the 8192-column 8-warp filter at 128 registers with 60 bytes of spills with
    # both tiles live across the bracket, none with this; shipped on those filters in session 30:
    # SPLIT_PAGE_AFTER_MAX_COLUMNS).
    page_after_bracket: bool = False
    # With row_starts (not the page stream): the filter's tiles from the window's start rounded down to 16 bytes
    # (``WarpConfig.aligned_windows``).
    aligned_windows: bool = True
    sure_kb: int = 0  # the select's copy of the sure columns in blocks of this many slots (0: ``block``)
    # The select's register cap (None: ptxas's own, 128 at 8 warps, where the float32 select spills 36 bytes; with
    # 160 it takes 141 and spills none). Session 25 timed 160: no change (8x128K 19.9 -> 20.1, 32x128K 38.0 -> 38.1).
    # No shipped config sets it.
    select_maxnreg: int | None = None


def tile(config: SplitConfig, elem_bytes: int) -> tuple[int, int, int]:
    """The filter's tile ``(A, V, TH)``: ``TH`` threads each load ``A`` runs of ``V`` contiguous
    columns (16 bytes), ``r x 256 x warps`` columns in all; one list per thread."""
    v = 16 // elem_bytes
    th = 32 * config.warps
    return 256 * config.r // (32 * v), v, th


#: Session 16 gave few long rows (at most 8 of 32K-128K float32 columns) 16-warp selects by bisection and the filter's
#: first tile loaded before its bracket (1x32K 21.3 / 23.1 -> 20.0 / 21.4, 8x32K 22.7 / 24.6 -> 22.2 / 23.6). Session
#: 19 replaced that rule by SPLIT_SECANT_MIN_N's (below): 8 select warps, interpolation, the early tile.
SPLIT_LARGE_SAMPLE_MIN_N = 65536
#: The select by interpolation (``bisect_select._secant_rel``) on float32 rows of at least this many columns
#: (session 19, ``sgl10_bench.py`` ``oldsec``, µs v2 / page table, shipped -> interpolation): 32x32K 25.5 / 27.9 ->
#: 23.4 / 25.7, 32x128K 60.3 / 64.2 -> 55.5 / 58.3, 64x64K 51.8 / 55.8 -> 47.5 / 50.4, 64x128K 94.0 / 100.4 -> 87.7 /
#: 91.0, 100x128K 96.0 / 100.9 -> 87.8 / 90.7, 16x128K 40.0 / 43.3 -> 34.2 / 37.3, 100x32K 42.2 / 44.7 -> 41.1 /
#: 43.9, 2x64K 24.1 / 25.7 -> 22.9 / 24.6; the few long rows' 16-warp bisection -> interpolation: 1x128K 26.0 / 27.8
#: -> 24.2 / 26.0, 8x128K 28.7 / 31.1 -> 27.2 / 29.5, 8x32K 22.3 / 23.7 -> 22.1 / 23.7, 1x32K 20.0 / 21.3 -> 19.4 /
#: 20.9. bfloat16 rows lost then (32x128K 50.8 -> 55.3, 8x32K 20.6 -> 20.8; with the rules below they win, session 31:
#: see SPLIT_PAGE_AFTER_MAX_COLUMNS). Then (call 9,
#: two rounds where repeated) 8 select warps, not 16, for the few long rows: 1x32K 19.5 / 21.1 -> 18.6 / 20.3, 8x32K
#: 22.0 / 23.5 -> 20.7 / 22.6, 1x128K 24.2 / 26.0 -> 23.6 / 25.6, 8x128K 26.9 / 29.3 -> 26.1 / 28.6, 4x64K 23.6 / 25.3
#: -> 22.6 / 24.6; and the early tile for the others: 32x128K 55.4 / 58.5 -> 54.6 / 57.5, 64x128K 87.4 / 90.6 -> 84.9
#: / 88.2.
SPLIT_SECANT_MIN_N = 32768
#: The filter's bracket guessed from the sample's moments first (``SplitConfig.guess``, slack 1.5) on the float32
#: rows that select by interpolation (SPLIT_SECANT_MIN_N+ columns, not many short rows) up to SPLIT_GUESS_MAX_N, with
#: candidate chunks of 4096. Session 22 (``sgl10_bench.py`` ``pickg<S>`` / ``old..g<S>``, µs v2 / page table, two
#: rounds unless noted, bisection -> slack 2.5 / 1.5): 32x128K 46.3 / 49.2 -> 40.8 / 43.9 / 38.1 / 41.0, 64x128K
#: 71.1 / 74.4 -> 60.9 / 63.9 / 55.9 / 58.8, 16x128K 30.7 / 33.3 -> 26.4 / 29.2 / 26.7 / 29.6, 1x128K 20.6 / 22.5 ->
#: 17.8 / 19.8 / 17.2 / 19.2; as shipped (call 3): 8x128K 23.35 / 26.15 -> 20.4 / 22.9, 100x128K 71.5 / 74.3 ->
#: 63.85 / 66.75; longer rows gain nothing (1x1M 36.7 / 40.0, 4x512K 42.8 / 46.25 either way) or lose (1x256K 23.2 /
#: 25.4 -> 23.7 / 26.0). 32K rows lose in chunks of 2048 (8x32K 17.7 / 19.5 -> 21.3 / 23.5 / 20.8 / 23.0: more
#: candidates than one chunk) and gain in chunks of 4096 (call 6, one round: 8x32K -> 17.3 / 19.1 / 17.4 / 19.2,
#: chunks of 4096 alone 19.6 / 21.3; 32x32K 20.4 / 22.65 -> slack 1.5 19.5 / 21.6; 1x32K 15.5 / 17.2 -> 15.6 / 17.4).
SPLIT_GUESS = 1.5
SPLIT_GUESS_MAX_N = 131072
#: float32 filter chunks where the rule above leaves SMs idle: chunks of 1024 columns if the call then has at most one
#: program per SM, else of 2048 if at most two (session 24, ``sgl10_bench.py`` ``pickch<C>``, µs v2 / page table,
#: shipped chunks (programs) -> 2048 / 1024): 8x32K 17.1 / 18.5 (32) -> 14.5 / 15.8 / 14.6 / 15.9 (two rounds), 16x32K
#: 17.9 / 19.5 (64) -> 16.7 / 18.1, 4x32K 16.7 / 18.1 (16) -> 13.8 / 15.2 / 13.5 / 14.8, 1x32K 15.2 / 16.6 -> 12.5 /
#: 13.8 / 12.1 / 13.4, 8x64K 18.7 / 20.2 (64) -> 17.1 / 18.7 / 18.6 / 20.1, 1x64K 16.2 / 17.7 -> 13.6 / 15.1 / 13.2 /
#: 14.7, 2x128K 18.3 / 20.0 (32) -> 16.1 / 17.7 / 16.3 / 18.0, 4x128K 19.5 / 21.3 (64) -> 19.2 / 21.0 / 20.4 / 22.2,
#: 1x128K 17.1 / 18.8 (16) -> 14.7 / 16.4 / 13.6 / 15.2, 1x20K 16.0 / 16.8 -> 13.6 / 14.5 / 13.1 / 13.9. Where the
#: rule gives a program per SM already, smaller chunks lose: 32x32K 19.1 -> 20.1 (2048), 8x128K 19.9 -> 25.3, 32x128K
#: 37.9 -> 59.3, 16x64K 19.8 -> 21.6; chunks of 4096 (4 warps) lost everywhere (8x32K 17.4, 16x32K 18.7, 2x128K 18.8,
#: 16x128K 26.5 -> 31.3). Rows of at most SPLIT_SMALL_CHUNKS_MIN_N columns: not timed.
SPLIT_SMALL_CHUNKS = (1024, 2048)
SPLIT_SMALL_CHUNKS_MIN_N = 16384
#: float32 filter chunks of 8192 columns on 16 warps (2 runs per thread, 96 registers, no spills; 8 warps: 8 runs,
#: 48-56 bytes of spills at 128 registers) where the call has at most one filter program per SM (session 25,
#: ``sgl10_bench.py`` ``pickch8192w16``, three rounds, µs v2 / page table): 8x128K 19.9 / 21.9 -> 19.2 / 21.1, 16x64K
#: 19.6 / 21.4 -> 19.3 / 20.9, 32x32K 19.2 / 20.8 -> 19.0 / 20.5. With more programs than SMs, 16-warp programs
#: (one per SM) lose: 16x128K 26.5 -> 28.9, 64x32K 22.8 -> 25.5, 24x64K 22.7 -> 25.1, 48x32K 22.3 -> 24.5, 32x128K
#: 38.0 -> 43.4. 8 warps without the cap (184 registers): 32x32K 18.9, 16x64K 19.2, 8x128K 19.8, not taken.
SPLIT_ONE_WAVE_WARPS = 16


#: float32 rows of at least SPLIT_SAMPLE_RUN_MIN_N columns: the filter's bracket sample in runs of 8 adjacent columns
#: (session 26, ``sgl10_bench.py`` ``picksrun8``, µs v2 / page table, two rounds where two are given): 32x128K 38.0 /
#: 40.2, 38.1 / 40.3 -> 30.8 / 33.1, 30.9 / 33.1; 16x128K 26.7 / 28.6 -> 23.4 / 25.4; 8x128K 19.2 / 20.9 -> 17.7 /
#: 19.7; 1x128K 13.7 / 15.3 -> 12.7 / 14.3; 32x32K 19.0 / 20.6 -> 18.4 / 19.8; 8x32K 14.5 / 15.8, 14.5 / 15.9 -> 14.1 /
#: 15.4, 14.2 / 15.6; 1x256K 21.1 / 22.9 -> 20.6 / 22.3; 16x64K 19.3 / 20.9 -> 19.0 / 20.6; 1x32K 12.1 / 13.4 -> 11.9 /
#: 13.2. Shorter rows: not timed.
SPLIT_SAMPLE_RUN = 8
SPLIT_SAMPLE_RUN_MIN_N = 32768
#: ... and its runs loaded as vectors (``sample_vec``; session 27, ``sgl10_bench.py`` ``pickvec``, two rounds, µs v2 /
#: page table): 32x128K 30.9 / 33.0 -> 30.4 / 32.6, 30.9 / 33.0 -> 30.4 / 32.5; 8x32K 14.3 / 15.5 -> 13.9 / 15.3,
#: 14.2 / 15.5 -> 13.9 / 15.2; 1x128K 13.0 / 14.6 -> 12.7 / 14.4, 12.7 / 14.3 -> 12.4 / 14.0; 32x32K 18.5 / 19.9 ->
#: 18.1 / 19.6; 16x128K 23.8 / 25.5 -> 23.2 / 25.5; 1x32K 12.0 / 13.2 -> 11.8 / 13.1.
SPLIT_SAMPLE_VEC = True
#: float32 calls of at most this many columns in all (rows x N) stream the page table's rows beside the scores in the
#: filter (``SplitConfig.page_stream``; session 28, ``sgl10_bench.py`` ``pickps``, two rounds where two are given,
#: µs page table, v2 in brackets): 8x32K 15.2 -> 14.2 / 14.3 (13.9), 32x32K 19.6 -> 18.6 (18.1), 16x128K 25.2 / 25.3
#: -> 24.3 / 24.2 (23.5), 1x128K 14.0 -> 12.6 (12.4). Larger calls lose: 32x128K 32.5 -> 33.1 (three rounds; with
#: chunks of 4096 on 4 / 8 warps 41.8 / 33.6, of 8192 on 16 warps 36.7), 64x128K 44.9 -> 48.2.
SPLIT_PAGE_STREAM_MAX_COLUMNS = 1 << 21
#: ... and up to this many with chunks of 8192 columns on 8 warps (the 128-register cap), whose page tile is loaded
#: after the bracket (``SplitConfig.page_after_bracket``; ptxas: 60 bytes of spills with both early tiles live across
#: the bracket, none after). Session 30 (``sgl10_bench.py`` ``pickpsab``, µs page table; late pass / early page tile /
#: after the bracket; v2 in brackets): 32x128K 32.5, 32.5 / 33.1 / 31.4, 31.4 (30.4), 16x128K (streamed early
#: before) 24.2 -> 23.7 (23.4). 64x128K loses (44.9 / 48.2 / 45.7): it keeps the late pass. Shorter rows (early tile
#: streamed on other configs) lose slightly: 8x32K 14.3 -> 14.4, 1x128K 12.9 -> 13.1.
#: 16-bit rows take all of the rules above since session 31; before, they kept session 15's config (none of the
#: rules marked float32). ``sgl10_bench.py`` ``pick16s`` / ``pick16sh`` (the same without the select by
#: interpolation), one round, µs v2 / page table, bf16: 32x128K 43.0 / 45.1 -> 31.7 / 33.0 (40.7 / 41.7), 8x32K
#: 17.5 / 19.0 -> 13.5 / 14.1 (16.8 / 17.0), 1x128K 21.9 / 23.4 -> 12.6 / 13.1 (18.5 / 19.0).
SPLIT_PAGE_AFTER_MAX_COLUMNS = 1 << 22


def pick_split(rows: int, n: int, k: int, sm_count: int) -> SplitConfig:
    """About 4 filter programs per SM, with chunks of at least 4 samples' worth of columns
    (each program gathers the row's sample again for its bracket). A chunk of up to 8192
    columns is one tile, read once; longer ones are read twice (the second time from L2)."""
    if interpreting():
        return SplitConfig(chunk=512, warps=1, r=1, sample=64, select_warps=1, cblock=64, block=64, cap=512)
    sample = 2048 if n >= 32768 else 1024  # also sizes the chunks and the candidate cap
    want = max(1, -(-4 * sm_count // max(rows, 1)))
    s = min(1 << (want - 1).bit_length(), max(1, n // max(4 * sample, 4096)))
    s = max(s, -(-n // (1 << 20)))  # chunks <= 2**20 columns: per-list counts (chunk / threads) < 2**16
    if n > SPLIT_SMALL_CHUNKS_MIN_N:  # SMs left idle: chunks of 1024 / 2048 (SPLIT_SMALL_CHUNKS)
        for small in SPLIT_SMALL_CHUNKS:
            if -(-n // small) > s and rows * -(-n // small) <= small // 1024 * sm_count:
                s = -(-n // small)
                break
    per = -(-n // s)
    if per <= 8192:
        chunk = max(1024, 1 << (per - 1).bit_length())
        warps = 8 if chunk == 8192 else 4
        if chunk == 8192 and rows * s <= sm_count:  # one wave (SPLIT_ONE_WAVE_WARPS)
            warps = SPLIT_ONE_WAVE_WARPS
        r = chunk // (256 * warps)
    else:
        warps, r = 4, 2
        chunk = 2048 * -(-per // 2048)
    cap = max(8192 if n >= 32768 else 2048, int(expected_candidates(n, k, sample)))
    if n >= STREAM_MIN_RATIO * k and k <= STREAM_MAX_K and n >= STREAM_MIN_N:
        cap = max(cap, 2 * k + 2 * 1024)  # the exact stream fallback's need
    # Many short rows: 4-warp selects, so that 4 rows' latency chains share an SM instead of 2
    # (4096x8K 403 -> 378 µs; on 512x128K and 1024x64K they measured 5-8% slower).
    few_warps = rows >= 2 * sm_count and n <= 16384
    # ... and candidate chunks of 1024 there: fewer registers, more selects per SM (4096x8K 380 -> 338 µs).
    cblock = 1024 if few_warps else 4096 if n >= 65536 else 2048
    # Rows over 64K columns sample 4096 keys for the bracket (session 17, sgl10_bench.py ``oldx4096``, µs none / page:
    # 8x128K 32.7 / 34.7 -> 28.7 / 31.2, 32x128K 62.6 / 66.7 -> 60.2 / 63.9, 1x128K 26.2 / 28.0 -> 26.1 / 28.0; 32K
    # rows lose: 8x32K 22.2 -> 24.1, 1x32K 20.0 -> 22.7, 32x32K 25.6 -> 26.8; 8192 keys: 32x128K 79.3): fewer
    # candidates for the select, which is half the time on few rows.
    if n > SPLIT_LARGE_SAMPLE_MIN_N:
        sample = 4096
    # Rows of 32K+ columns (not many short ones): the select by interpolation and the filter's first tile
    # before its bracket (session 19, ``oldsec`` / ``oldsecearly``).
    secant = n >= SPLIT_SECANT_MIN_N and not few_warps
    guess = SPLIT_GUESS if secant and n <= SPLIT_GUESS_MAX_N else 0.0
    if guess:  # its wider candidate set in chunks of 4096 (32K rows)
        cblock = 4096
    run = SPLIT_SAMPLE_RUN if n >= SPLIT_SAMPLE_RUN_MIN_N else 1
    config = SplitConfig(chunk=chunk, warps=warps, r=r, sample=sample, cblock=cblock, cap=cap,
                         maxnreg=128, select_warps=4 if few_warps else 8, bisect=secant, early=secant,
                         sbits=0 if secant else 1, guess=guess, sample_run=run,
                         sample_vec=SPLIT_SAMPLE_VEC and run > 1)
    capped = chunk == 8192 and warps == 8 and secant  # early tile, 128 registers: the page tile after the bracket
    limit = SPLIT_PAGE_AFTER_MAX_COLUMNS if capped else SPLIT_PAGE_STREAM_MAX_COLUMNS
    if rows * n <= limit:
        config = replace(config, page_stream=True, page_after_bracket=capped)
    # The select's copy of the sure columns and its page-table pass over all k slots at once (session 23,
    # ``sgl10_bench.py`` ``pickks``, µs v2 / page table, blocks of ``block`` -> all k): 8x32K 17.4 / 19.2 -> 17.1 /
    # 18.5, 32x32K 19.4 / 21.6 -> 19.2 / 20.7, 1x32K 15.4 / 17.3 -> 15.2 / 16.5, 1x128K 17.2 / 19.2 -> 17.1 / 18.8,
    # 32x128K 38.0 / 41.0 -> 37.9 / 40.0 (the page pass alone, ``pickkb``: 8x128K 22.6 -> 21.8).
    kb = late_block(config, k)
    return replace(config, page_kb=kb, sure_kb=kb)


def split_constexprs(config: SplitConfig, key_bits: int, elem_bytes: int, transform: int, has_starts: bool,
                     stream: bool) -> tuple[dict, dict]:
    """The compile-time arguments of ``filter_kernel`` and ``select_kernel`` (also built by the sm_90 compile
    test). The session-16 flags are passed only when on, so the other builds are unchanged."""
    a, v, th = tile(config, elem_bytes)
    f_const = dict(KEY_BITS=key_bits, CHUNK=config.chunk, A=a, V=v, TH=th, SAMPLE=config.sample, HAS_STARTS=has_starts,
                   **({"EARLY": True} if config.early else {}),
                   **({"BPB": config.bracket_bits} if config.bracket_bits else {}),
                   GUESS=float(config.guess) if config.bracket_bits else 0.0,
                   SRUN=config.sample_run if config.bracket_bits else 1,  # always given, as warp_constexprs' SRUN
                   SVEC=bool(config.bracket_bits) and config.sample_vec,
                   PSTREAM=config.page_stream and transform == 1,
                   **({"PAGE_AFTER": True} if config.page_after_bracket and config.page_stream and transform == 1
                      else {}),
                   **({"HEAD": True} if has_starts and config.aligned_windows
                      and not (config.page_stream and transform == 1) else {}), SU=1)
    s_const = dict(KEY_BITS=key_bits, BLOCK=config.block, CBLOCK=config.cblock, TRANSFORM=transform,
                   HAS_STARTS=has_starts, STREAM=stream, **({"BISECT": True} if config.bisect else {}),
                   **({"SB": 0} if config.bisect and config.sbits == 0 else {}),
                   **({"PAGE_KB": config.page_kb} if config.page_kb and transform == 1 else {}),
                   **({"SURE_KB": config.sure_kb} if config.sure_kb else {}),
                   PSTREAM=config.page_stream and transform == 1, SU=1)
    return f_const, s_const


def _check_sample_run(config: SplitConfig | WarpConfig) -> None:
    """The bracket's sample in runs (``sample_run``, both paths) must tile it: a power of two up to 32 dividing it."""
    if config.sample_run not in (1, 2, 4, 8, 16, 32) or config.sample % config.sample_run:
        raise ValueError(f"config: sample_run must be a power of two up to 32 that divides sample, got {config}")


#: The hint bracket's gather: at most this many of the hint's columns at a time (``split._hint_bracket``).
HINT_GATHER = 2048


def hint_lanes(k: int) -> int:
    """``filter_kernel``'s HINT for a hint of ``k`` columns: k rounded up to a power of two, at most HINT_GATHER."""
    return min(1 << max(k - 1, 0).bit_length(), HINT_GATHER)


def launch_split(call: Call, config: SplitConfig | None = None, hint: torch.Tensor | None = None) -> None:
    """Run the two-launch path for one validated call (outputs already allocated). ``hint``: the call's validated
    ``pre_idx`` (``[rows // next_n, k]`` int32), whose columns give the filter's bracket instead of a sample
    (``split._hint_bracket``: ``topk-gvr``); the answer is the same with or without it."""
    from . import split  # imports triton; kept out of the entry point

    if _settle_empty(call):
        return
    logits, rows, n, k, device = _facts(call)
    config = config or pick_split(rows, n, k, sm_count(device))
    _check_sample_run(config)
    if config.page_stream and call.transform == "page_table" and not _page_streamable(call):
        config = replace(config, page_stream=False)
    stream = n >= STREAM_MIN_RATIO * k and k <= STREAM_MAX_K and (n >= STREAM_MIN_N or interpreting())
    if not 0 <= config.bracket_bits <= 16:
        raise ValueError(f"config: bracket_bits must be 0 (two histograms) or 1-16 (bisection), got {config}")
    if stream and config.cap < k + config.block:
        raise ValueError(f"cap: the exact stream fallback needs at least k + block = {k + config.block}, "
                         f"got {config.cap}")
    # Counters in a buffer of their own: zero when created, and reset by every call that uses them.
    ctr_bytes = 4 * rows * int(split.CTR_WORDS)
    ctr = ws.scratch(OWNER + ".split.counters", device, ctr_bytes, call.workspace)[:ctr_bytes].view(torch.int32)
    list_bytes = 4 * rows * (k + 2 * config.cap)
    lists = ws.scratch(OWNER + ".split.lists", device, list_bytes, call.workspace)[:list_bytes].view(torch.int32)
    transform, starts, outputs = _transform_operands(call)
    has_starts = call.row_starts is not None
    key_bits = KEY_BITS[logits.dtype]
    n_chunks = -(-n // config.chunk)
    f_const, s_const = split_constexprs(config, key_bits, logits.element_size(), transform, has_starts, stream)
    stride, su = _stride_args(logits)
    f_const, s_const = {**f_const, **su}, {**s_const, **su}
    if hint is not None:  # only then: the other builds keep their constexprs
        f_const["HINT"] = hint_lanes(k)
    f_args = (logits, stride, n, call.seq_lens, call.next_n, call.compress_ratio, starts, k, ctr, lists,
              config.cap, *outputs[3:8], hint)  # the page table, its stride, cu, has_cu, requests; the hint
    s_args = (logits, stride, n, rows, call.seq_lens, call.next_n, call.compress_ratio, starts, k,
              *outputs, ctr, lists, config.cap)
    f_fn = split.filter_kernel[(rows, n_chunks)]
    s_fn = split.select_kernel[(rows,)]
    launched = []
    # The filter counts into ctr and the select reads and re-zeroes it: no other thread's launches between them, and
    # a select that never launches (its compile interrupted, say) must not leave the counts behind.
    with ws.launch_sequence:
        try:
            for name, fn, args, const, opts in (
                    ("filter", f_fn, f_args, f_const, _options(config.warps, config.maxnreg)),
                    ("select", s_fn, s_args, s_const, _options(config.select_warps, config.select_maxnreg))):
                _run_cached(_cache_key(("split", name), logits.dtype, const, opts, device), fn, args,
                            {**const, **opts})
                launched.append(name)
        except BaseException:
            if launched == ["filter"] and not ws.capturing(device):
                ctr.zero_()
            raise


def pick_warp(rows: int, n: int, k: int, sm_count: int, transform: str = "none",
              elem_bytes: int = 4) -> WarpConfig | ResidentConfig | None:
    """The one-program-per-row config for a call (``RESIDENT``, ``WARP_FEW`` ..), or None for the other paths."""
    if interpreting():
        return None
    per_sm = rows / max(sm_count, 1)
    if RESIDENT_N[0] < n <= RESIDENT_N[1] and per_sm <= RESIDENT_MAX_ROWS_PER_SM:
        return resident_config(elem_bytes)
    if elem_bytes == 4 and RESIDENT_N[1] < n <= RESIDENT_WIDE_MAX_N and per_sm <= RESIDENT_MAX_ROWS_PER_SM:
        return RESIDENT_WIDE
    if k > WARP_MAX_K or n < max(WARP_MIN_N, WARP_MIN_RATIO * k):
        return None
    page = transform == "page_table"
    if per_sm < WARP_MIN_ROWS_PER_SM:
        return None
    long_rows = n >= WARP_MID_LARGE_N
    if per_sm <= 1.5:
        if WARP_FEW_LARGE_N[0] < n <= WARP_FEW_LARGE_N[1]:
            config = WARP_FEW_LARGE_PAGE if page else WARP_FEW_LARGE if elem_bytes == 4 else WARP_FEW_LARGE_16
        elif long_rows:
            config = WARP_FEW_LONG_PAGE if page else WARP_FEW_LONG
        else:
            config = WARP_FEW_PAGE if page else WARP_FEW
    elif per_sm <= 12:
        if page:
            if per_sm <= 6:
                config = WARP_MID_LARGE_PAGE if long_rows else WARP_MID_PAGE
            else:
                config = WARP_MID_LARGE_PAGE_MANY if long_rows else WARP_MID_PAGE_MANY
        elif long_rows:
            config = WARP_MID_LARGE if per_sm <= 6 else WARP_MID_LARGE_MANY
        else:
            config = WARP_MID
    elif n <= WARP_MANY_SMALL_N:
        config = WARP_MANY_SMALL_PAGE if page else WARP_MANY_SMALL
    else:
        config = WARP_MANY_PAGE if page else WARP_MANY
    if n <= WARP_NARROW_BRACKET_MAX_N:
        config = _NARROW_BRACKET[config]
    config = all_cands_config(config, n, k, elem_bytes)
    if elem_bytes == 2 and config.warps < 16:  # float32's keys per tile (see WARP_MIN_ROWS_PER_SM)
        config = replace(config, a=max(1, config.a // 2))
    words = warp_scratch_words(config, warp_cap(config, n, k), k, 8 * elem_bytes)
    return config if rows * 4 * words <= WARP_MAX_SCRATCH else None


WARP_MAX_CAP = (1 << 21) - 1


def warp_cap(config: WarpConfig, n: int, k: int) -> int:
    """Candidates per row: the bracket's generous bound, at most the row (then it never overflows)."""
    if config.cap:
        return config.cap
    want = 2 * expected_candidates(n, k, config.sample)  # 1x overflowed ~1% of rows of 64K-128K (16-bit bounds)
    if config.all_cands:  # the keys above the bracket are candidates too, and a tile of slack (``warp._place_all``)
        want += k + config.a * 8 * 32 * config.warps
    # below 2**21: the select's packed counts (``bisect_select._count3``, sbits 2)
    return max(1, min(n, WARP_MAX_CAP, max(1024, 32 * -(-int(want) // 32))))


def warp_scratch_words(config: WarpConfig, cap: int, k: int, key_bits: int) -> int:
    """A row's candidate scratch in 32-bit words: ``cap`` candidates (two words each), and with ``warp_regions`` a
    region per warp of its fair share and a warp's tile of slack, and without all_cands a sure region per warp of
    twice its share of k (``warp.warp_row_words``)."""
    if not config.warp_regions:
        return 2 * cap
    warp_tile = config.a * (128 // key_bits) * 32
    words = 2 * (cap + config.warps * (cap // config.warps + warp_tile))
    if not config.all_cands:  # the sure columns' regions
        words += config.warps * ((2 * k) // config.warps + warp_tile)
    return words


def late_block(config: WarpConfig | SplitConfig, k: int) -> int:
    """``all_k_block`` for a warp config or for a two-launch config's select: the late page pass of the few- and mid-row
    warp page configs (``LATE_ALL_K``) and the two-launch select's sure copy and page pass (session 23)."""
    return all_k_block(config.select_warps if isinstance(config, SplitConfig) else config.warps, k)


def launch_warp(call: Call, config: WarpConfig | None = None) -> None:
    """Run the warp path for one validated call (outputs already allocated)."""
    from . import row_order, warp  # both import triton; kept out of the entry point

    if _settle_empty(call):
        return
    logits, rows, n, k, device = _facts(call)
    config = config or WarpConfig()
    if config.sbits not in (0, 1, 2, 4) or config.bbits not in (1, 2, 4):
        raise ValueError(f"config: sbits must be 0 (interpolation), 1, 2 or 4 and bbits 1, 2 or 4, got {config}")
    if not 1 <= config.bracket_bits <= 16 or (config.bracket_bits != 16 and config.bbits != 1):
        raise ValueError(f"config: bracket_bits must be 1-16 (below 16 only with bbits 1), got {config}")
    if config.ahead not in (1, 2):
        raise ValueError(f"config: ahead must be 1 or 2 tiles, got {config}")
    if config.pack_cands and not config.bisect:
        raise ValueError(f"config: pack_cands needs bisect (its select reads packed candidates), got {config}")
    if config.sbits == 2 and config.cap > WARP_MAX_CAP:
        raise ValueError(f"config: sbits 2 needs cap <= {WARP_MAX_CAP} (packed counts), got {config}")
    if (config.page_early or config.first_chunk_regs) and not config.bisect:
        raise ValueError(f"config: page_early and first_chunk_regs need bisect (its select keeps the first chunk), "
                         f"got {config}")
    if config.warp_regions and not config.pack_cands:
        raise ValueError(f"config: warp_regions needs pack_cands (its regions hold packed candidates), got {config}")
    if config.defer_sure and (config.all_cands or not config.warp_regions):
        raise ValueError(f"config: defer_sure needs warp_regions without all_cands (sure regions), got {config}")
    if config.all_cands and not config.pack_cands:
        raise ValueError(f"config: all_cands needs pack_cands (its stream writes packed candidates), got {config}")
    _check_sample_run(config)
    if config.page_stream and config.late:
        raise ValueError(f"config: page_stream replaces the late page pass (late must be False), got {config}")
    if config.first_wave < 0:
        raise ValueError(f"config: first_wave must be >= 0 programs per SM, got {config}")
    if config.page_stream and call.transform == "page_table" and not _page_streamable(call):
        config = replace(config, page_stream=False, late=True)  # its late_kb: the pass it falls back to
    cap = warp_cap(config, n, k)
    nbytes = 4 * rows * warp_scratch_words(config, cap, k, KEY_BITS[logits.dtype])
    scratch = ws.scratch(OWNER + ".warp", device, nbytes, call.workspace)[:nbytes].view(torch.int32)
    transform, starts, outputs = _transform_operands(call)
    with ws.launch_sequence:  # the order kernel's scratch is read by the warp kernel launched after it
        order, first, order_code = row_order.launch_order(call, config, starts)
        const = warp_constexprs(config, KEY_BITS[logits.dtype], transform, call.row_starts is not None, k,
                                order_code)
        stride, su = _stride_args(logits)
        const = {**const, **su}
        opts = _options(config.warps, config.maxnreg)
        if order_code == 2:
            opts["launch_pdl"] = True
        args = (logits, stride, n, call.seq_lens, call.next_n, call.compress_ratio, starts, k, *outputs,
                scratch, cap, order, first)
        _run_cached(_cache_key(("warp",), logits.dtype, const, opts, device), warp.warp_kernel[(rows,)], args,
                    {**const, **opts})


def stride_unit(logits) -> int:
    """The row stride's unit for the kernels' ``SU``: 16 bytes' worth of columns where the stride is a multiple of
    them but not of 16 columns (which Triton specializes by itself), else 1. The kernels take ``stride / SU`` and
    multiply it back, so that such rows keep their 16-byte loads (session 30). A stride of 2**31 or more keeps unit 1:
    the kernels multiply back in int32 (an int32 argument), while the full stride reaches them as an int64."""
    vec = 16 // logits.element_size()
    stride = logits.stride(0)
    return vec if stride % 16 and stride % vec == 0 and stride < 1 << 31 else 1


def _stride_args(logits) -> tuple[int, dict]:
    """``(stride argument, {"SU": unit})`` of the row kernels (``stride_unit``; the constexpr builders give 1)."""
    unit = stride_unit(logits)
    return logits.stride(0) // unit, {"SU": unit}


def _page_streamable(call: Call) -> bool:
    """Whether the page stream may read this call's table with 16-byte loads and leave the values alone."""
    table = call.page_table
    return (call.values is None and table.data_ptr() % 16 == 0 and table.stride(0) % 4 == 0
            and table.stride(1) == 1)


def launch_resident(call: Call, config: ResidentConfig) -> None:
    """Run the resident path for one validated call (outputs already allocated)."""
    from . import resident  # imports triton; kept out of the entry point

    if _settle_empty(call):
        return
    logits, rows, n, k, device = _facts(call)
    transform, starts, outputs = _transform_operands(call)
    const = resident_constexprs(config, n, KEY_BITS[logits.dtype], transform, call.row_starts is not None)
    stride, su = _stride_args(logits)
    const = {**const, **su}
    opts = _options(config.warps, None)
    args = (logits, stride, n, call.seq_lens, call.next_n, call.compress_ratio, starts, k, *outputs)
    _run_cached(_cache_key(("resident",), logits.dtype, const, opts, device), resident.resident_kernel[(rows,)], args,
                {**const, **opts})
