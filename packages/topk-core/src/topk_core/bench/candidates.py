"""What the benchmark times: our backends, auto, and the peers (torch.topk, FlashInfer).

A candidate turns one shape's rotating inputs into ``step(i)`` (one call on
input set i) and ``result(i)`` (indices as top_k_varlen would return them, for
the correctness check before timing). With hints (``topk bench --hint``) each
input set carries a ``pre_idx``, which the ``top_k_varlen`` candidates pass.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from dataclasses import dataclass

import torch

from .. import registry, sgl
from ..api import make_problem, top_k_varlen
from ..auto import judge
from ..keys import valid_lengths
from ..testing.inputs import HINT_NOISE
from .grids import Shape


@dataclass
class Inputs:
    logits: list[torch.Tensor]
    seq_lens: list[torch.Tensor]  # per request (top_k_varlen)
    lengths: list[torch.Tensor]  # per row, int32 (SGLang / FlashInfer ragged)
    pre_idx: list[torch.Tensor] | None = None  # per request hints (make_hint), or None: no hints

    def hint(self, i: int) -> dict:
        """``pre_idx=`` of input set i as call keywords; none without hints, so those calls stay as they were."""
        return {} if self.pre_idx is None else {"pre_idx": self.pre_idx[i]}


@dataclass
class Prepared:
    step: Callable[[int], None]
    result: Callable[[int], torch.Tensor]
    full_rows: bool = False  # result ranks whole rows (no lengths)


class Candidate:
    name: str
    kind: str  # "ours" or "peer"

    def prepare(self, shape: Shape, inputs: Inputs) -> Prepared | str:
        """A Prepared, or a reason this candidate does not run ``shape``."""
        raise NotImplementedError


def _outs(shape: Shape, count: int, device) -> list[torch.Tensor]:
    return [torch.empty(shape.rows, shape.k, dtype=torch.int32, device=device) for _ in range(count)]


class Ours(Candidate):
    kind = "ours"

    def __init__(self, backend: str):
        self.name = backend
        self.backend = backend

    def prepare(self, shape, inputs):
        logits = inputs.logits[0]
        if self.backend != "auto":
            problem = make_problem(logits, shape.k, next_n=shape.next_n, has_hint=inputs.pre_idx is not None)
            verdict = judge(self.backend, problem)
            if not verdict.usable:  # e.g. a backend that needs a hint, benched without --hint
                return verdict.reason
        outs = _outs(shape, len(inputs.logits), logits.device)

        def step(i):
            top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, next_n=shape.next_n,
                         out_indices=outs[i], backend=self.backend, **inputs.hint(i))

        return Prepared(step, lambda i: outs[i])


_SHORT = {"none": "v2", "page_table": "page", "ragged": "ragged"}


def kernel_as(backend: str) -> Callable | None:
    """The backend's ``kernel_as(transform)`` (a context in which its calls run the kernel it picks for that
    transform), or None where it has none."""
    entry = registry.get(backend)
    return getattr(entry.backend, "kernel_as", None) if entry is not None else None


#: The bench's page table: row r maps column j to ``(j * m + r * PAGE_SHIFT) % width`` with m = PAGE_MULT (a prime;
#: 1 for the rare width it divides), a bijection of each row that the check inverts. One table serves every input
#: set, as one serves every layer of a decode step.
PAGE_MULT, PAGE_SHIFT = 40507, 7919
#: Ragged offsets: row r's indices move by ``r * RAGGED_STEP + 1`` (nonzero, so a kernel that left them out fails).
RAGGED_STEP = 3001


def _page_mult(width: int) -> int:
    return PAGE_MULT if width % PAGE_MULT else 1


def bench_page_table(rows: int, width: int, device) -> torch.Tensor:
    j = torch.arange(width, dtype=torch.int64, device=device)
    r = torch.arange(rows, dtype=torch.int64, device=device)[:, None]
    return ((j * _page_mult(width) + r * PAGE_SHIFT) % width).to(torch.int32)


def local_of_page(entries: torch.Tensor, width: int) -> torch.Tensor:
    """``bench_page_table``'s inverse on a result (row r's entries back to columns); negative slots stay as they are
    and entries past the table become -2, so that the check fails them."""
    r = torch.arange(entries.shape[0], dtype=torch.int64, device=entries.device)[:, None]
    inv = pow(_page_mult(width), -1, width) if width > 1 else 0
    e = entries.to(torch.int64)
    local = ((e - r * PAGE_SHIFT) % max(width, 1)) * inv % max(width, 1)
    return torch.where(e < 0, e, torch.where(e >= width, -2, local)).to(torch.int32)


class SglTransform(Candidate):
    """``topk_core.sgl`` with a fused transform on one backend (a permuting page table, nonzero ragged offsets; the
    check inverts them, so a kernel that skipped the transform fails it). ``windows``:
    ``(buffers, row_starts)``, the calls read row b of input i at ``buffers[i][b, row_starts[b]:]`` (one request per
    row), whose first columns hold the inputs' row; else they read the inputs' logits. ``pick_as``: the calls run the
    kernel the backend picks for that transform (``kernel_as``), e.g. ``"sgl_fused:v2@page"``, the page table's kernel
    with the identity transform: what issue 6 bounds the fused transform's cost against."""

    kind = "ours"

    def __init__(self, backend: str, transform: str, windows: tuple | None = None, pick_as: str | None = None):
        self.backend, self.transform, self.windows, self.pick_as = backend, transform, windows, pick_as
        self.name = f"{backend}:{_SHORT[transform]}" + (f"@{_SHORT[pick_as]}" if pick_as else "")

    def prepare(self, shape, inputs):
        if shape.next_n != 1:
            return "SGLang functions take per-row lengths (next_n 1)"
        logits = inputs.logits[0]
        if self.backend != "auto":
            verdict = judge(self.backend, make_problem(logits, shape.k, transform=self.transform))
            if not verdict.usable:
                return verdict.reason
        picked = contextlib.nullcontext
        if self.pick_as is not None:
            chooser = kernel_as(self.backend) if self.backend != "auto" else None
            if chooser is None:
                return f"{self.backend} cannot run the kernel it picks for another transform"
            picked = functools.partial(chooser, self.pick_as)
        dev = logits.device
        rows = shape.rows
        scores, starts = self.windows or (inputs.logits, None)
        # a permuting table as wide as the scores; with row starts, requests by cu_seqlens_q, one row each
        width = scores[0].shape[1]
        table = bench_page_table(rows, width, dev)
        cu = None if starts is None else torch.arange(rows + 1, dtype=torch.int32, device=dev)
        offsets = torch.arange(rows, dtype=torch.int32, device=dev) * RAGGED_STEP + 1
        results: dict[int, torch.Tensor] = {}

        def step(i):
            x, lens, k = scores[i], inputs.lengths[i], shape.k
            with picked():
                if self.transform == "none":
                    results[i] = sgl.fast_topk_v2(x, lens, k, row_starts=starts, backend=self.backend)
                elif self.transform == "page_table":
                    results[i] = sgl.fast_topk_transform_fused(x, lens, table, cu, k, row_starts=starts,
                                                               backend=self.backend)
                else:
                    results[i] = sgl.fast_topk_transform_ragged_fused(x, lens, offsets, k, row_starts=starts,
                                                                      backend=self.backend)

        def result(i):  # local columns again, for the check
            out = results[i]
            if self.transform == "page_table":
                return local_of_page(out, width)
            if self.transform == "ragged":
                return torch.where(out >= 0, out - offsets[:, None], out)
            return out

        return Prepared(step, result)


class TorchTopk(Candidate):
    name, kind = "torch.topk", "peer"

    def prepare(self, shape, inputs):
        dev = inputs.logits[0].device
        cols = torch.arange(shape.n, device=dev)
        results: dict[int, torch.Tensor] = {}
        neg_inf = torch.tensor(float("-inf"), dtype=inputs.logits[0].dtype, device=dev)

        def step(i):
            lengths = inputs.lengths[i]
            masked = torch.where(cols[None, :] < lengths[:, None], inputs.logits[i], neg_inf)
            idx = torch.topk(masked, shape.k, dim=1, sorted=False).indices
            results[i] = torch.where(idx < lengths[:, None], idx, -1).to(torch.int32)

        return Prepared(step, lambda i: results[i])


class FlashInferVarlen(Candidate):
    name, kind = "fi.top_k_varlen", "peer"

    def prepare(self, shape, inputs):
        import flashinfer

        outs = _outs(shape, len(inputs.logits), inputs.logits[0].device)

        def step(i):
            flashinfer.top_k_varlen(inputs.logits[i], inputs.seq_lens[i], shape.k, next_n=shape.next_n,
                                    out_indices=outs[i], **inputs.hint(i))

        return Prepared(step, lambda i: outs[i])


@contextlib.contextmanager
def _fi_algo(algo: str | None):
    """FlashInfer reads FLASHINFER_TOPK_ALGO at each call, under capture too: set it around one."""
    if algo is None:
        yield
        return
    old = os.environ.get("FLASHINFER_TOPK_ALGO")
    os.environ["FLASHINFER_TOPK_ALGO"] = algo
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("FLASHINFER_TOPK_ALGO", None)
        else:
            os.environ["FLASHINFER_TOPK_ALGO"] = old


def _fi_name(base: str, algo: str | None) -> str:
    """``fi.top_k``, ``fi.top_k[native]`` (FLASHINFER_TOPK_ALGO=default), ``fi.top_k[cub]`` ..."""
    return base + ("[native]" if algo == "default" else f"[{algo}]" if algo else "")


class FlashInferTopk(Candidate):
    """``flashinfer.top_k`` on whole rows (values and int64 indices: more output than ours). ``algo`` None: its own
    dispatch, which under graph capture takes CUB on 128+ rows (FlashInfer 0.7.2, tuned on B200); "default": the
    native kernels (``fi.top_k[native]``)."""

    kind = "peer"

    def __init__(self, algo: str | None = None):
        self.algo = algo
        self.name = _fi_name("fi.top_k", algo)

    def prepare(self, shape, inputs):
        import flashinfer

        results: dict[int, torch.Tensor] = {}

        def step(i):
            with _fi_algo(self.algo):
                results[i] = flashinfer.top_k(inputs.logits[i], shape.k)[1]

        return Prepared(step, lambda i: results[i].to(torch.int32), full_rows=True)


class FlashInferRagged(Candidate):
    """``flashinfer.top_k_ragged_transform`` (zero offsets); ``algo`` as ``FlashInferTopk``'s."""

    kind = "peer"

    def __init__(self, algo: str | None = None):
        self.algo = algo
        self.name = _fi_name("fi.ragged", algo)

    def prepare(self, shape, inputs):
        import flashinfer

        zeros = torch.zeros(shape.rows, dtype=torch.int32, device=inputs.logits[0].device)
        results: dict[int, torch.Tensor] = {}

        def step(i):
            with _fi_algo(self.algo):
                results[i] = flashinfer.top_k_ragged_transform(inputs.logits[i], zeros, inputs.lengths[i], shape.k)

        return Prepared(step, lambda i: results[i])


def flashinfer_version() -> str | None:
    try:
        import flashinfer

        return getattr(flashinfer, "__version__", "?")
    except Exception:
        return None


def default_candidates(device: str, include: list[str] | None = None, sgl_transforms: bool = False) -> list[Candidate]:
    ours = [name for name in registry.available_backends()]
    cands: list[Candidate] = [Ours("auto")] + [Ours(name) for name in ours]
    if sgl_transforms:  # auto may compose selection + transform; named backends run fused or refuse
        for name in ["auto"] + ours:
            if name != "reference":
                cands += [SglTransform(name, t) for t in ("none", "page_table", "ragged")]
                if name != "auto" and kernel_as(name) is not None:  # the page table's kernel, identity transform
                    cands.append(SglTransform(name, "none", pick_as="page_table"))
    if device == "cuda" or device == "cpu":
        cands.append(TorchTopk())
    if device == "cuda" and flashinfer_version() is not None:
        cands += [FlashInferVarlen(), FlashInferTopk(), FlashInferTopk("default"), FlashInferRagged(),
                  FlashInferRagged("default")]
    if include:
        cands = [c for c in cands if c.name in include or c.name == "auto"]
    return cands


def make_inputs(shape: Shape, count: int, device, seed: int = 0, hint: str | None = None,
                hint_noise: float = HINT_NOISE, kind: str = "randn") -> Inputs:
    """Fresh random rows, seq_lens uniform in [N/2, N] columns; with ``hint`` (a ``make_hint`` mode),
    a ``pre_idx`` per input set, built here so that no timed call pays for it (``hint_noise``: make_hint's
    ``noise``). ``kind``: the rows' values, randn or another of ``testing.KINDS`` (``make_logits``; "plateau"
    puts a 0.0 plateau across the k-th value of every row, the worst case of a bracket's candidate buffer)."""
    from ..testing.inputs import KINDS, make_hint, make_logits, make_seq_lens

    if kind not in KINDS:
        raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")
    dtype = getattr(torch, shape.dtype)
    g = torch.Generator(device=device).manual_seed(seed)
    logits, seq_lens, lengths = [], [], []
    for i in range(count):
        if kind == "randn":  # drawn on the device (the committed tables' inputs)
            x = torch.randn(shape.rows, shape.n, generator=g, device=device, dtype=torch.float32).to(dtype)
        else:
            x = make_logits(kind, shape.rows, shape.n, dtype, device, seed=seed + i, k=shape.k)
        s = make_seq_lens(shape.rows // shape.next_n, shape.n, next_n=shape.next_n, seed=seed + i,
                          mode="uniform", device=device)
        logits.append(x)
        seq_lens.append(s)
        lengths.append(valid_lengths(s, shape.rows, shape.n, shape.next_n).to(torch.int32))
    pre_idx = None
    if hint is not None:
        pre_idx = [make_hint(x, s, shape.k, next_n=shape.next_n, mode=hint, seed=seed + i, noise=hint_noise)
                   for i, (x, s) in enumerate(zip(logits, seq_lens))]
    return Inputs(logits, seq_lens, lengths, pre_idx)
