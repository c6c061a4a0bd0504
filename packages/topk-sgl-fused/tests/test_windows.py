"""Windows at runtime starts (``row_starts``) whose scores are not 16-byte aligned.

With ``aligned_windows`` (both one-launch and two-launch paths) the stream reads its tiles from the window's start
rounded down to 16 bytes (``split._stream_base``) and masks the columns before the window out of the first tile. Every
start residue (fp32: 4 columns to 16 bytes, bf16: 8), windows shorter than a tile, ending on and off a tile's edge,
rows of at most k; the columns before each window hold +inf or NaN and those after it +inf, so any that leaks in
takes an output slot. Under TRITON_INTERPRET=1 on CPU, or compiled on a GPU (also at GPU sizes).
"""

from dataclasses import replace

import pytest
import torch

from topk_core.testing import check_topk, local_columns, poisoned_call, random_page_tables
from topk_core.testing.triton_kit import TRITON_MARKS, triton_device

pytestmark = TRITON_MARKS

WIDTH = 1408  # a multiple of 8: 16-byte aligned rows in either dtype


def _windows(dtype, k, dev, seed, width=WIDTH, tile=128, pad=0):
    """``(buffer, starts, lens)``: four rows per start residue of the dtype's 16 bytes, then rows of at most k and
    an empty one; the columns outside each window poisoned as above, its first and last columns large. ``pad``: the
    buffer a view of ``width`` columns of a wider one (a row stride of 16 bytes' multiple but not of 16 columns:
    ``launch.stride_unit``)."""
    vec = 16 // torch.empty((), dtype=dtype).element_size()
    g = torch.Generator().manual_seed(seed)
    starts, lens = [], []
    for shift in range(vec):  # within the first tile, to its edge, just past the second's edge, and long
        for base, length in ((0, tile // 2 - shift), (vec, tile - shift), (0, 2 * tile - 1),
                             (vec * (5 + shift), width)):
            starts.append(base + shift)
            lens.append(max(length, k + 1))
    starts += [3, width - k + 1, width - 2, width]  # the window past the row: empty
    lens += [k, k + 5, 9, 4]
    rows = len(starts)
    wide = torch.randn(rows, width + pad, generator=g).to(dtype)
    x = wide[:, :width]
    for r, (s, n) in enumerate(zip(starts, lens)):
        x[r, :s] = float("nan") if r % 2 else float("inf")
        x[r, s + n:] = float("inf")
        if 0 < n and s + n <= width:  # the window's first and last columns among its largest: each must be kept
            x[r, s] = 40.0
            x[r, s + n - 1] = 50.0
    as_int = lambda v: torch.tensor(v, dtype=torch.int32, device=dev)  # noqa: E731
    x = wide.to(dev)[:, :width]  # (a copy of the view itself would be dense)
    assert x.stride(0) == width + pad
    return x, as_int(starts), as_int(lens)


def _check(call, x, lens, k, starts, inverse=None):
    idx = call.indices
    if inverse is not None:  # one request per row
        idx = local_columns(idx, inverse, torch.arange(idx.shape[0])).to(torch.int32).to(idx.device)
    elif call.transform == "ragged":
        idx = torch.where(idx >= 0, idx - call.index_offsets[:, None], idx)
    check_topk(x, lens, k, idx, call.values, row_starts=starts)


def _launch_all(x, starts, lens, k, plan):
    """Each ``(config, transforms)`` of the plan: "none" (values asked), "ragged" (random offsets), "page_table" (a
    random table per row: at the store, by the late pass, or streamed where the config streams it, which keeps
    unaligned scores)."""
    from topk_sgl_fused import launch

    dev = x.device
    rows = x.shape[0]
    offsets = torch.randint(0, 10**6, (rows,), dtype=torch.int32, generator=torch.Generator().manual_seed(3))
    table, inverse = random_page_tables(rows, x.shape[1], seed=31)
    fields = {"none": {}, "ragged": {"index_offsets": offsets.to(dev)},
              "page_table": {"values": False, "page_table": table.to(dev),
                             "cu_seqlens_q": torch.arange(rows + 1, dtype=torch.int32, device=dev)}}
    for config, transforms in plan:
        for transform in transforms:
            call = poisoned_call(x, lens, k, row_starts=starts, transform=transform, **fields[transform])
            if isinstance(config, launch.WarpConfig):
                launch.launch(call, config=config)
            else:
                launch.launch_split(call, config)
            _check(call, x, lens, k, starts, inverse if transform == "page_table" else None)


ALL = ("none", "ragged", "page_table")


@pytest.mark.minutes(0.3)
def test_warp_path_windows():
    """The one-launch path: tiles of 128 columns (fp32; bf16 256), the next tile or two in flight; the old unaligned
    stream (``aligned_windows=False``) alike; fp32 rows at a stride of 16 bytes' multiple, not 16 columns'."""
    from topk_sgl_fused.launch import WarpConfig, interpreting

    dev = triton_device()
    base = WarpConfig(1, 1, 64, 64, 64) if interpreting() else WarpConfig(2, 1, 128, 64, 64)
    x, starts, lens = _windows(torch.float32, 40, dev, seed=5, tile=128, pad=4)  # stride unit 4
    _launch_all(x, starts, lens, 40, [(base, ALL), (replace(base, ahead=2), ("none",)),
                                      (replace(base, late=True), ("page_table",)),
                                      (replace(base, page_stream=True), ("page_table",)),
                                      (replace(base, aligned_windows=False), ("none",))])
    x, starts, lens = _windows(torch.bfloat16, 60, dev, seed=7, tile=256)
    _launch_all(x, starts, lens, 60, [(base, ("none",))])


@pytest.mark.minutes(0.6)
def test_split_path_windows():
    """The two-launch path: chunks of one tile (its first loaded before the bracket or not) and of several (the
    count and write passes each place the first tile before their loops); the old unaligned stream alike; bf16 rows
    at a stride of 16 bytes' multiple, not 16 columns'."""
    from topk_sgl_fused.launch import SplitConfig

    dev = triton_device()
    fast = SplitConfig(chunk=512, warps=1, r=1, sample=256, select_warps=1, cblock=64, block=64, cap=4096)
    one = replace(fast, chunk=256, early=True)
    x, starts, lens = _windows(torch.float32, 40, dev, seed=6, tile=256)
    _launch_all(x, starts, lens, 40, [(fast, ALL), (replace(fast, early=True), ("none",)),
                                      (replace(one, early=False), ("none",)), (one, ("none", "page_table")),
                                      (replace(one, page_stream=True), ("page_table",)),
                                      (replace(fast, aligned_windows=False), ("none",))])
    x, starts, lens = _windows(torch.bfloat16, 60, dev, seed=8, tile=256, pad=8)  # stride unit 8
    _launch_all(x, starts, lens, 60, [(fast, ("none",)), (one, ("none",))])


def test_aligned_windows_flag():
    """HEAD is a compile-time argument only of builds with row_starts, aligned_windows and no page stream (the
    other builds' arguments, and so their code, are those of before)."""
    from topk_sgl_fused import launch

    warp = launch.WarpConfig(4)
    split = launch.SplitConfig(chunk=8192, warps=8, r=4, sample=4096, early=True, page_stream=True)
    for has_starts in (False, True):
        for transform in (0, 1, 2):
            for config, stream in ((warp, False), (replace(warp, page_stream=True), True),
                                   (replace(split, page_stream=False), False), (split, True)):
                if isinstance(config, launch.WarpConfig):
                    const = launch.warp_constexprs(config, 32, transform, has_starts, 2048)
                else:
                    const = launch.split_constexprs(config, 32, 4, transform, has_starts, True)[0]
                want = has_starts and not (stream and transform == 1)
                assert const.get("HEAD", False) == want, (config, transform, has_starts)
                off = (launch.warp_constexprs(replace(config, aligned_windows=False), 32, transform, has_starts, 2048)
                       if isinstance(config, launch.WarpConfig) else
                       launch.split_constexprs(replace(config, aligned_windows=False), 32, 4, transform, has_starts,
                                               True)[0])
                assert "HEAD" not in off


def test_stride_unit():
    """``launch.stride_unit``: 16 bytes' worth of columns for strides of their multiple but not of 16 columns."""
    from topk_sgl_fused.launch import stride_unit

    for dtype, width, want in ((torch.float32, 1412, 4), (torch.float32, 1408, 1), (torch.float32, 1414, 1),
                               (torch.bfloat16, 1416, 8), (torch.bfloat16, 1412, 1), (torch.float16, 1432, 8)):
        assert stride_unit(torch.empty(2, width, dtype=dtype)) == want, (dtype, width)
        assert stride_unit(torch.empty(2, width + 5, dtype=dtype)[:, :width]) == 1  # an odd stride
    # A stride past int32 keeps unit 1 (the kernels multiply the unit back in int32); just under it, 8 as above.
    for stride, want in (((1 << 31) + 8, 1), ((1 << 31) - 8, 8)):
        rows = torch.empty(2, 64, dtype=torch.bfloat16, device="meta").as_strided((2, 64), (stride, 1))
        assert stride_unit(rows) == want, stride
