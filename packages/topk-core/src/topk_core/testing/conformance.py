"""The conformance suite every backend package runs against itself.

Subclass ``BackendConformance`` in a backend's tests::

    class TestMine(BackendConformance):
        backend = "mine"
        device = "cuda"
        pytestmark = [pytest.mark.gpu]
        claims = Claims(dtypes=("float32",), max_k=2048, next_n=True, compress_ratio=True)

A case inside ``claims`` must run and be exact; a case outside may run (and is
then checked) or be refused, and a refusal must carry a reason. Every test
draws fresh random inputs and poisons the outputs first.

A backend that needs a ``pre_idx`` hint sets ``hint = "previous"`` (a ``make_hint``
mode): every case then passes one, so the whole suite runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch

from ..api import make_problem, top_k_varlen
from ..auto import judge
from ..errors import BackendNotSupportedError
from .check import check_topk
from .inputs import HINT_MODES, KINDS, as_layout, make_hint, make_logits, make_seq_lens, poison_like

DTYPE_NAMES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass(frozen=True)
class Claims:
    """What a backend promises to run; the suite fails if it refuses any of it."""

    dtypes: tuple[str, ...] = ("float32", "bfloat16", "float16")
    max_k: int = 1 << 30
    max_n: int = 1 << 30
    next_n: bool = True
    compress_ratio: bool = True
    return_values: bool = True
    transforms: tuple[str, ...] = ()
    row_starts: bool = False

    def covers(self, p) -> bool:
        return (p.dtype in self.dtypes and p.k <= self.max_k and p.n <= self.max_n
                and (self.next_n or p.next_n == 1) and (self.compress_ratio or p.compress_ratio == 1)
                and (self.return_values or not p.return_values)
                and (p.transform == "none" or p.transform in self.transforms)
                and (self.row_starts or not p.row_starts))


class BackendConformance:
    backend: str = "reference"
    device: str = "cpu"
    claims: Claims = Claims()
    #: "small" keeps shapes tiny (Triton interpreter); "full" adds GPU-sized rows.
    scale: str = "full"
    #: Passed to every call: run the suite once per path of a backend that has both.
    load_balance: bool = True
    #: A ``make_hint`` mode passed as ``pre_idx`` on every case (for backends that need a hint), or None.
    hint: str | None = None

    # ------------------------------------------------------------------ helpers
    def _device(self) -> torch.device:
        if self.device == "cuda" and not torch.cuda.is_available():
            pytest.skip("needs a CUDA GPU")
        return torch.device(self.device)

    def _hint_mode(self, hint: bool | str | None) -> str | None:
        """run_case's ``hint``: True is "random" (as always), a string is a ``make_hint`` mode, and
        False/None defer to the class's ``hint``."""
        if hint is True:
            return "random"
        if hint is False or hint is None:
            return self.hint
        return hint

    def run_case(self, rows, n, k, *, dtype="float32", kind="randn", next_n=1, compress_ratio=1,
                 return_values=True, seed=0, lens_mode="mixed", out_1d=False, hint=False, layout="contiguous"):
        """Run one case; returns "ok" or "refused" (after checking the refusal).

        ``hint``: True passes a "random" hint, a ``make_hint`` mode that hint; else the class's ``hint``.
        ``layout``: the logits as a view into a wider NaN buffer (``inputs.as_layout``: ``padded``, ``unaligned``).
        """
        device = self._device()
        tdtype = DTYPE_NAMES[dtype]
        logits = as_layout(make_logits(kind, rows, n, tdtype, device, seed=seed, k=k), layout)
        seq_lens = make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=compress_ratio,
                                 seed=seed, mode=lens_mode, device=device)
        mode = self._hint_mode(hint)
        pre_idx = None
        if mode is not None:
            pre_idx = make_hint(logits, seq_lens, k, next_n=next_n, compress_ratio=compress_ratio, mode=mode,
                                seed=seed)
        problem = make_problem(logits, k, next_n=next_n, compress_ratio=compress_ratio,
                               return_values=return_values, has_hint=pre_idx is not None)
        verdict = judge(self.backend, problem)
        if not verdict.usable:
            assert not self.claims.covers(problem), f"{self.backend} refused a claimed case: {verdict.reason}"
            assert isinstance(verdict.reason, str) and verdict.reason.strip()
            with pytest.raises(BackendNotSupportedError, match="cannot run"):
                top_k_varlen(logits, seq_lens, k, pre_idx=pre_idx, next_n=next_n, compress_ratio=compress_ratio,
                             return_values=return_values, backend=self.backend)
            return "refused"
        shape = (rows * k,) if out_1d else (rows, k)
        out_i = poison_like(torch.empty(shape, dtype=torch.int32, device=device))
        out_v = poison_like(torch.empty(shape, dtype=tdtype, device=device)) if return_values else None
        idx, vals = top_k_varlen(logits, seq_lens, k, pre_idx=pre_idx, next_n=next_n,
                                 compress_ratio=compress_ratio, return_values=return_values,
                                 out_indices=out_i, out_values=out_v, backend=self.backend,
                                 load_balance=self.load_balance)
        assert idx.data_ptr() == out_i.data_ptr()
        check_topk(logits, seq_lens, k, idx, vals, next_n=next_n, compress_ratio=compress_ratio)
        return "ok"

    def _size(self, small, full):
        return small if self.scale == "small" else full

    # ------------------------------------------------------------------ tests
    @pytest.mark.parametrize("kind", KINDS)
    @pytest.mark.parametrize("dtype", list(DTYPE_NAMES))
    def test_kinds(self, kind, dtype):
        rows, n = self._size((4, 200), (8, 3000))
        for k in (1, 7, self._size(64, 300)):
            self.run_case(rows, n, k, dtype=dtype, kind=kind, seed=k)

    @pytest.mark.parametrize("next_n", [1, 2, 3, 4])
    @pytest.mark.parametrize("compress_ratio", [1, 4])
    def test_next_n_compress_ratio(self, next_n, compress_ratio):
        n = self._size(160, 2500)
        self.run_case(4 * next_n, n, self._size(16, 128), next_n=next_n, compress_ratio=compress_ratio,
                      seed=next_n * 10 + compress_ratio)

    @pytest.mark.parametrize("layout", ["padded", "unaligned"])
    @pytest.mark.parametrize("dtype", list(DTYPE_NAMES))
    def test_strided_logits(self, layout, dtype):
        """Rows that are views into a wider buffer of NaN (the spec asks only for a unit last stride): nothing
        outside a row is read, and unaligned rows take a path that does not assume 16-byte loads."""
        rows, n = self._size((4, 200), (6, 5000))
        for k in (1, self._size(16, 256)):
            self.run_case(rows, n, k, dtype=dtype, layout=layout, seed=21 + k)

    @pytest.mark.parametrize("next_n,compress_ratio", [(1, 1), (2, 1), (4, 4)])
    def test_int32_extreme_seq_lens(self, next_n, compress_ratio):
        """seq_lens at the int32 ends: -2**31 is an empty row for every next_n (its numerator must not wrap to a
        long row), 2**31 - 1 a full one."""
        self.run_case(9 * next_n, self._size(100, 3000), self._size(16, 256), next_n=next_n,
                      compress_ratio=compress_ratio, lens_mode="extreme", seed=12 + next_n)

    @pytest.mark.parametrize("k_over_n", [0.5, 1.0, 1.5])
    def test_k_near_and_above_n(self, k_over_n):
        n = self._size(64, 1000)
        self.run_case(5, n, max(1, int(n * k_over_n)), lens_mode="full", seed=3)
        self.run_case(5, n, max(1, int(n * k_over_n)), seed=4)

    @pytest.mark.parametrize("return_values", [False, True])
    @pytest.mark.parametrize("out_1d", [False, True])
    def test_out_buffers(self, return_values, out_1d):
        self.run_case(6, self._size(100, 1500), 32, return_values=return_values, out_1d=out_1d, seed=5)

    def test_hint_never_changes_answer(self):
        """Every hint mode, on ties, plateaus and NaN: a hint may change speed, never the answer."""
        n = self._size(100, 2000)
        for i, mode in enumerate(HINT_MODES):
            for j, kind in enumerate(("int_ties", "plateau", "nan")):
                self.run_case(6, n, 32, hint=mode, seed=6 + 10 * i + j, kind=kind)

    def test_plateau_overflow(self):
        """0.0 plateaus far wider than any candidate buffer."""
        n = self._size(256, 65536)
        self.run_case(3, n, self._size(32, 2048), kind="plateau", lens_mode="full", seed=8)

    @pytest.mark.slow
    def test_long_rows(self):
        if self.scale == "small":
            pytest.skip("long rows are for GPU scale")
        self.run_case(2, 1 << 20, 2048, seed=9, lens_mode="uniform")
        self.run_case(16, 131072, 2048, seed=10, lens_mode="uniform", kind="int_ties")

    def test_decode_shapes(self):
        if self.scale == "small":
            self.run_case(3, 300, 20, seed=11, lens_mode="uniform")
            return
        for rows, n, k in ((1, 8192, 2048), (4, 32768, 512), (32, 16384, 1024)):
            self.run_case(rows, n, k, seed=rows + k, lens_mode="uniform")

    def test_supports_never_crashes(self):
        """supports() answers odd problems with None or a reason, never an exception."""
        from ..protocol import Problem
        from ..registry import get

        backend = get(self.backend).backend
        for facts in (dict(rows=0, n=0, k=1, dtype="float32"), dict(rows=1, n=1 << 24, k=1 << 20, dtype="float16"),
                      dict(rows=3, n=5, k=9, dtype="bfloat16", next_n=3, compress_ratio=7, transform="ragged"),
                      dict(rows=2, n=9, k=2, dtype="float32", capability=(7, 0), row_starts=True)):
            reason = backend.supports(Problem(**facts))
            assert reason is None or (isinstance(reason, str) and reason.strip())
