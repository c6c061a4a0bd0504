"""SGLang-compatible top-k (``sgl_kernel`` names and arguments), any ``topk >= 1``.

Rows follow ``top_k_varlen``'s rules with per-row lengths: negative is empty,
overlong is clamped to the window ``[row_starts[b], L)``. Each function runs on
the best installed backend that supports its fused transform, unless a faster
selection backend without it, plus a torch pass for the transform, is expected to
take less time (``compose_faster``).
"""

from __future__ import annotations

import math

import torch

from . import auto, env, validate
from .api import dispatch, make_problem
from .kernels.backend_base import triton_interpreting
from .protocol import Call
from .reference import apply_transform

#: µs that composing (a plain selection, then the Triton transform pass over the [rows, k] indices) adds to the
#: selection, ``a + b * rows * k + c * rows * n + d * log2(rows)``: session 57's ``shared/device/compose_bench.py`` dsa
#: run on an H200 (auto:page[tpass] / auto:ragged[tpass] minus auto:v2 on all 15 cells), least squares relative to
#: each time with non-negative terms (``shared/dev/fit_compose.py``; worst cell 31% / 18% off, page table / ragged).
#: The page table's gathers cost more as the table grows (``c``: TLB and DRAM pages). With it the model composes on
#: every dsa cell, and there every dsa cell measured faster composed (e.g. 1024x64K page table 112.2 µs against 164.8
#: fused; ragged 83.9 against 150.2). Before: session 54's fit on an H100 (1.691, 7.729e-6, 2.093e-7 / 1.264,
#: 2.384e-6, 1.404e-9), the same picks on the dsa grid.
COMPOSE_US = {"page_table": (1.726, 5.2579e-6, 1.8357e-7, 0.0), "ragged": (1.175, 1.6394e-6, 1.8150e-8, 0.0)}
#: Masked torch.topk µs on session 26's H200 run, ``a + b * rows * n`` (fp32 k=2048 cells of both grids, least
#: squares relative to each time, within 0.6-1.2x): the unit of the backends' scores (torch.topk µs / backend µs), so
#: scores become times.
TORCH_US = (56.67, 2.125e-5)


def fast_topk(values: torch.Tensor, topk: int, dim: int):
    """``values.max`` for ``topk == 1``, else ``torch.topk`` (sorted values, int64 indices).

    The scores are checked as the other functions' (2-D float32 / bfloat16 / float16); ``topk`` is an int from 1 to
    the size of ``dim``."""
    if not isinstance(values, torch.Tensor) or values.dim() != 2 or values.dtype not in validate.LOGITS_DTYPES:
        raise ValueError(f"values: expected a 2-D float32, bfloat16 or float16 tensor, got {validate._desc(values)}")
    if isinstance(dim, bool) or not isinstance(dim, int) or not -2 <= dim <= 1:
        raise ValueError(f"dim: expected an int in [-2, 1] (values is 2-D), got {validate.type_name(dim)} {dim!r}")
    validate.check_int("topk", topk, 1, values.shape[dim], f"the size of dim {dim}")
    if topk == 1:
        return torch.max(values, dim=dim, keepdim=True)
    return torch.topk(values, topk, dim=dim)


def _prepare(score, lengths, topk, row_starts):
    validate.check_logits(score, "score")
    validate.check_int("topk", topk, 1)
    rows = score.shape[0]
    validate.check_index_vector("lengths", lengths, score.device, rows, "one per row")
    if row_starts is not None:
        validate.check_index_vector("row_starts", row_starts, score.device, rows, "one per row")
    return torch.empty((rows, topk), dtype=torch.int32, device=score.device)


def _select(score, lengths, topk, row_starts, out, backend, transform="none", **tensors) -> torch.Tensor:
    facts = dict(row_starts=row_starts is not None)
    # The kernels read index vectors from their base pointer: strided views are copied first.
    call_args = dict(logits=score, seq_lens=validate.unit_stride(lengths), top_k=topk,
                     row_starts=validate.unit_stride(row_starts))
    tensors = {name: validate.unit_stride(t) if name in ("cu_seqlens_q", "index_offsets") else t
               for name, t in tensors.items()}
    fused = make_problem(score, topk, transform=transform, **facts)
    plain = make_problem(score, topk, **facts)
    if backend != "auto" or env.forced_backend():  # an explicit backend runs the fused call or raises
        dispatch(fused, Call(indices=out, transform=transform, **call_args, **tensors), backend)
        return out
    best_fused = auto.choose(fused)
    best_plain = auto.choose(plain)
    if transform != "none" and best_plain != best_fused and _should_compose(best_plain, plain, best_fused, fused):
        local = torch.empty_like(out)
        dispatch(plain, Call(indices=local, **call_args), best_plain)
        _compose(local, out, Call(indices=out, transform=transform, **call_args, **tensors))
        return out
    dispatch(fused, Call(indices=out, transform=transform, **call_args, **tensors), best_fused)
    return out


def compose_faster(plain_score: float, fused_score: float, transform: str, rows: int, n: int, k: int) -> bool:
    """Whether a plain selection of ``plain_score`` plus the transform pass is expected to beat
    the fused call of ``fused_score`` (scores: speed-ups over masked torch.topk; 0 = unusable)."""
    if plain_score <= 0:
        return False
    if fused_score <= 0:
        return True
    torch_us = TORCH_US[0] + TORCH_US[1] * rows * n
    a, b, c, d = COMPOSE_US[transform]
    compose_us = a + b * rows * k + c * rows * n + d * math.log2(max(rows, 1))
    return torch_us / plain_score + compose_us < torch_us / fused_score


def _should_compose(best_plain: str, plain, best_fused: str, fused) -> bool:
    choice = env.sgl_compose()
    if choice != "model":
        return choice == "always"
    return compose_faster(_score(best_plain, plain), _score(best_fused, fused), fused.transform, fused.rows, fused.n,
                          fused.k)


def _compose(local: torch.Tensor, out: torch.Tensor, call: Call) -> None:
    """The transform of a plain selection's ``local`` indices into ``out``: one Triton pass on a GPU (or under the
    Triton interpreter), else (or without Triton) the reference's torch ops."""
    if out.is_cuda or triton_interpreting():
        try:
            from .kernels.transform_pass import apply_transform_pass
        except ImportError:  # torch without Triton (e.g. some non-Linux builds)
            pass
        else:
            apply_transform_pass(local, out, call.transform, call.page_table, call.cu_seqlens_q, call.index_offsets)
            return
    out.copy_(apply_transform(call, local.to(torch.int64)))


def _score(name: str, problem) -> float:
    verdict = auto.judge(name, problem)
    return verdict.score if verdict.usable and name != "reference" else 0.0


def fast_topk_v2(score: torch.Tensor, lengths: torch.Tensor, topk: int, row_starts: torch.Tensor | None = None,
                 *, backend: str = "auto"):
    """Top-k of each row's window ``score[b, s_b : s_b + lengths[b]]``, indices relative to ``s_b``."""
    out = _prepare(score, lengths, topk, row_starts)
    return _select(score, lengths, topk, row_starts, out, backend)


def fast_topk_transform_fused(score, lengths, page_table_size_1, cu_seqlens_q, topk, row_starts=None, *,
                              backend: str = "auto"):
    """Selection with each local index ``j`` translated to ``page_table_size_1[req(b), j]``.

    ``req(b)`` is ``b`` without row_starts and with a table row per score row, else the ``r`` with
    ``cu_seqlens_q[r] <= b < cu_seqlens_q[r + 1]``; rows outside every request (which the spec leaves open: only
    device data would tell) take the nearest request, the first or the last, in every backend."""
    out = _prepare(score, lengths, topk, row_starts)
    rows, width = score.shape
    table = page_table_size_1
    if not isinstance(table, torch.Tensor) or table.dim() != 2 or table.dtype != torch.int32:
        raise ValueError(f"page_table_size_1: expected a 2-D int32 tensor, got {validate._desc(table)}")
    if table.device != score.device:
        raise ValueError(f"page_table_size_1: expected a tensor on {score.device}, got {table.device}")
    if table.shape[1] < width:
        raise ValueError(
            f"page_table_size_1: expected at least {width} columns (the score width), got {table.shape[1]}"
        )
    if table.stride(1) != 1:
        raise ValueError(f"page_table_size_1: expected unit stride in the last dimension, got {table.stride()}")
    if rows and not table.shape[0]:
        raise ValueError(f"page_table_size_1: expected at least one row (a request) for {rows} score rows, got 0")
    per_row = row_starts is None and table.shape[0] == rows
    cu = None
    if not per_row:
        if not isinstance(cu_seqlens_q, torch.Tensor):
            raise ValueError("cu_seqlens_q: expected an int32 tensor with page_table rows + 1 entries, got "
                             f"{validate.type_name(cu_seqlens_q)}")
        validate.check_index_vector("cu_seqlens_q", cu_seqlens_q, score.device, table.shape[0] + 1,
                                    "page_table_size_1 rows + 1")
        cu = cu_seqlens_q
    return _select(score, lengths, topk, row_starts, out, backend, "page_table", page_table=table,
                   cu_seqlens_q=cu)


def fast_topk_transform_ragged_fused(score, lengths, topk_indices_offset, topk, row_starts=None, *,
                                     backend: str = "auto"):
    """Selection with ``local_j + topk_indices_offset[b]`` for selected entries; padding stays -1."""
    out = _prepare(score, lengths, topk, row_starts)
    validate.check_index_vector("topk_indices_offset", topk_indices_offset, score.device, score.shape[0],
                                "one per row")
    return _select(score, lengths, topk, row_starts, out, backend, "ragged",
                   index_offsets=topk_indices_offset)
