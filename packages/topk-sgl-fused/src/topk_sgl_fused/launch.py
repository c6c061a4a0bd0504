"""Host side of ``sgl_fused``: launch configuration, scratch, compile cache, launch.

No host reads of device data: everything here depends only on shapes, dtypes and the
device, so a call is CUDA-graph capturable after one eager call per geometry.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

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


def pick_config(rows: int, n: int, k: int, sm_count: int) -> Config:
    """Launch shape from static facts (see NOTES.md for the register counts behind it).

    Long rows (N >= 8k and N >= 16K) take the one-read stream path with 16 warps and 16 KB
    chunks (the stream kernel needs ~220 registers at 8 warps, so one program per SM; 16
    warps double the bytes in flight). Short rows take the two-pass path: 16 warps per row when rows
    are few, else 8 warps and two programs per SM (128 registers). The interpreter gets
    small chunks so that CPU tests cover the multi-chunk and compaction paths.
    """
    stream = n >= STREAM_MIN_RATIO * k and k <= STREAM_MAX_K and (n >= STREAM_MIN_N or interpreting())
    if interpreting():
        return Config(block=64, num_warps=4, progs_per_sm=1, stream=stream)
    if stream or rows <= sm_count // 2:
        return Config(block=4096, num_warps=16, progs_per_sm=1, stream=stream)
    return Config(block=2048, num_warps=8, progs_per_sm=2, stream=False, maxnreg=128)


def cap_for(config: Config, k: int) -> int:
    """Scratch entries per program. The interpreter gets small ones, so that the CPU tests
    reach the two-pass overflow path and the stream compactions."""
    if interpreting():
        return 2 * k + 2 * config.block if config.stream else 256
    return max(CAP, 2 * k + 2 * config.block) if config.stream else CAP


def interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "") not in ("", "0")


@functools.cache
def _sm_count(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


def sm_count(device: torch.device) -> int:
    if device.type != "cuda" or interpreting():
        return 4
    return _sm_count(device.index if device.index is not None else torch.cuda.current_device())


def scratch_bytes(grid: int, cap: int) -> int:
    """Per program: ``cap`` keys, ``cap`` columns and 32 words (the append counter)."""
    return grid * (2 * cap + 32) * 4


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
    if config.stream and cap < k + config.block:
        raise ValueError(f"cap: the stream path needs at least k + BLOCK = {k + config.block}, got {cap}")
    grid = min(rows, sms * config.progs_per_sm)
    nbytes = scratch_bytes(grid, cap)
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
                      STREAM=config.stream, ATOMIC=config.atomic)
    options = dict(num_warps=config.num_warps)
    if config.maxnreg and not interpreting():
        options["maxnreg"] = config.maxnreg
    key = (OWNER, str(logits.dtype), tuple(sorted(constexprs.items())), tuple(sorted(options.items())),
           interpreting(), device.type)
    args = (logits, logits.stride(0), n, rows,
            call.seq_lens, call.next_n, call.compress_ratio, starts, int(call.row_starts is not None),
            k, indices, values if values is not None else logits, int(values is not None),
            page, page.stride(0), cu, int(has_cu), (cu.numel() - 1) if has_cu else 0, offsets,
            cand, cap)
    fn = kernel.sgl_topk_kernel[(grid,)]
    ran = []

    def build():  # the first launch of a variant compiles it (timed by compile_cached)
        fn(*args, **constexprs, **options)
        ran.append(True)
        return fn

    compile_cached(key, build)
    if not ran:
        fn(*args, **constexprs, **options)
