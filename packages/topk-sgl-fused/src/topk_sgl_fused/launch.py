"""Host side of ``sgl_fused``: launch configuration, scratch, compile cache, launch.

No host reads of device data: everything here depends only on shapes, dtypes and the
device, so a call is CUDA-graph capturable after one eager call per geometry.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, replace

import torch

from topk_core import workspace as ws
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call

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


def interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "") not in ("", "0")


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


def launch(call: Call, config: Config | None = None, cap: int | None = None) -> None:
    """Run the fused kernel for one validated call (outputs already allocated)."""
    from . import kernel  # imports triton; kept out of the entry point

    logits = call.logits
    rows, n = logits.shape
    if rows == 0:
        return
    if n == 0:  # every row is empty; an empty tensor may have no device pointer to pass
        call.indices.fill_(-1)
        if call.values is not None:
            call.values.fill_(float("-inf"))
        return
    k = call.top_k
    device = logits.device
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
    transform = TRANSFORM_CODES[call.transform]
    indices, values = call.indices, call.values
    assert indices.is_contiguous() and (values is None or values.is_contiguous())
    page = call.page_table if transform == 1 else indices
    has_cu = transform == 1 and call.cu_seqlens_q is not None
    cu = call.cu_seqlens_q if has_cu else call.seq_lens
    offsets = call.index_offsets if transform == 2 else call.seq_lens
    starts = call.row_starts if call.row_starts is not None else call.seq_lens
    constexprs = dict(KEY_BITS=KEY_BITS[logits.dtype], BLOCK=config.block, TRANSFORM=transform,
                      STREAM=config.stream, ATOMIC=config.atomic, FAST=config.fast, SAMPLE=config.sample,
                      CBLOCK=config.cblock, THREADS=threads(config), FBLOCK=fast_block(config))
    options = dict(num_warps=config.num_warps)
    if config.maxnreg and not interpreting():
        options["maxnreg"] = config.maxnreg
    key = (OWNER, str(logits.dtype), tuple(sorted(constexprs.items())), tuple(sorted(options.items())),
           interpreting(), device.type)
    args = (logits, logits.stride(0), n, rows,
            call.seq_lens, call.next_n, call.compress_ratio, starts, int(call.row_starts is not None),
            k, indices, values if values is not None else logits, int(values is not None),
            page, page.stride(0), cu, int(has_cu), (cu.numel() - 1) if has_cu else 0, offsets,
            cand, cap, slots)
    fn = kernel.sgl_topk_kernel[(grid,)]
    ran = []

    def build():  # the first launch of a variant compiles it (timed by compile_cached)
        fn(*args, **constexprs, **options)
        ran.append(True)
        return fn

    compile_cached(key, build)
    if not ran:
        fn(*args, **constexprs, **options)
