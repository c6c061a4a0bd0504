"""Host side of ``sgl_fused``: launch configuration, scratch, compile cache, launch.

No host reads of device data: everything here depends only on shapes, dtypes and the
device, so a call is CUDA-graph capturable after one eager call per geometry.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
from dataclasses import dataclass, replace

import torch

from topk_core import workspace as ws
from topk_core.kernels.backend_base import triton_interpreting
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

from .split_configs import (  # noqa: F401 (re-exported, as warp_configs' names)
    HINT_GATHER,
    SPLIT_GUESS,
    SPLIT_GUESS_MAX_N,
    SPLIT_LARGE_SAMPLE_MIN_N,
    SPLIT_ONE_WAVE_WARPS,
    SPLIT_PAGE_AFTER_MAX_COLUMNS,
    SPLIT_PAGE_STREAM_MAX_COLUMNS,
    SPLIT_SAMPLE_RUN,
    SPLIT_SAMPLE_RUN_MIN_N,
    SPLIT_SAMPLE_VEC,
    SPLIT_SECANT_MIN_N,
    SPLIT_SMALL_CHUNKS,
    SPLIT_SMALL_CHUNKS_MIN_N,
    STREAM_MAX_K,
    STREAM_MIN_N,
    STREAM_MIN_RATIO,
    SplitConfig,
    _check_sample_run,
    expected_candidates,
    hint_lanes,
    late_block,
    pick_split,
    split_constexprs,
    tile,
)
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
    WARP_ALL_CANDS_MID_MIN_RATIO,
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
    WARP_MANY_LF,
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
    WARP_MID_LF,
    WARP_MID_NARROW_LF,
    WARP_MID_NARROW_MANY_LF,
    WARP_MID_PAGE,
    WARP_MID_PAGE_LF,
    WARP_MID_PAGE_MANY,
    WARP_MID_PAGE_MANY_LF,
    WARP_MID_PAGE_MANY_NARROW_LF,
    WARP_MIN_N,
    WARP_MIN_RATIO,
    WARP_MIN_ROWS_PER_SM,
    WARP_NARROW_BRACKET_BITS,
    WARP_NARROW_BRACKET_MAX_N,
    WARP_PAGE_AHEAD,
    WARP_REGIONS_16_MAX_RATIO,
    WARP_REGIONS_MID_AHEAD,
    WARP_SAMPLE_RUN,
    WARP_SELECT_SECANT,
    ResidentConfig,
    WarpConfig,
    all_cands_config,
    all_k_block,
    mid_regions_config,
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
#: Candidate capacity of the fast path (its bracket holds ~2 x 5 sigma sample ranks: ~5K of 128K).
FAST_CAP = 8192
#: Capacity of the fast path's per-thread lists (see ``slots_for``).
FAST_SLOTS = 64
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
    elif per_sm <= 12:  # past a first wave longest first, but 8K rows' page table at 2-6 per SM (measured slower)
        narrow = n <= WARP_NARROW_BRACKET_MAX_N
        if page:
            if per_sm <= 6:
                config = WARP_MID_LARGE_PAGE if long_rows else WARP_MID_PAGE if narrow else WARP_MID_PAGE_LF
            else:
                config = (WARP_MID_LARGE_PAGE_MANY if long_rows else WARP_MID_PAGE_MANY_NARROW_LF if narrow
                          else WARP_MID_PAGE_MANY_LF)
        elif long_rows:
            config = WARP_MID_LARGE if per_sm <= 6 else WARP_MID_LARGE_MANY
        elif narrow:
            config = WARP_MID_NARROW_LF if per_sm <= 6 else WARP_MID_NARROW_MANY_LF
        else:
            config = WARP_MID_LF
    elif n <= WARP_MANY_SMALL_N:
        config = WARP_MANY_SMALL_PAGE if page else WARP_MANY_SMALL
    else:
        config = WARP_MANY_PAGE if page else WARP_MANY_LF
    if n <= WARP_NARROW_BRACKET_MAX_N and config.bracket_bits != WARP_NARROW_BRACKET_BITS:  # *_NARROW_*: already
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
