"""The shared backend base: environment reasons, wiring to checks and launcher, no DSL import."""

import subprocess
import sys
import types

import pytest
import torch

from topk_core.kernels import backend_base
from topk_core.kernels.backend_base import CUTE_DSL, TRITON, KernelBackend, plain_kernel_reason
from topk_core.protocol import Backend, Problem

CALLS = []


def _fake_checks():
    checks = types.ModuleType("fake_checks")
    checks.supports = lambda p: None if p.k <= 8 else "k too big"
    checks.score = lambda p: 2.5
    return checks


class Fake(KernelBackend):
    name = "fake"
    requires = (CUTE_DSL, TRITON)
    min_capability = (9, 0)
    checks = _fake_checks()
    launcher = "topk_core_fake_launch:go"


@pytest.fixture
def launcher(monkeypatch):
    mod = types.ModuleType("topk_core_fake_launch")
    mod.go = lambda *args: CALLS.append(args)
    monkeypatch.setitem(sys.modules, "topk_core_fake_launch", mod)
    CALLS.clear()
    return mod


def P(**kw):
    return Problem(**{**dict(rows=2, n=100, k=4, dtype="float32", capability=(9, 0)), **kw})


def test_is_a_backend_and_wires_checks_and_launcher(launcher):
    b = Fake()
    assert isinstance(b, Backend) and b.protocol == 1
    assert b.supports(P()) is None and b.supports(P(k=9)) == "k too big"
    assert b.score(P()) == 2.5
    b.run("problem", "call")
    assert CALLS == [("call",)]
    Fake.launch_takes_problem = True
    try:
        b.run("problem", "call")
    finally:
        Fake.launch_takes_problem = False
    assert CALLS[-1] == ("problem", "call")


def test_environment_reasons_in_order(monkeypatch):
    import torch

    b = Fake()
    monkeypatch.setattr(backend_base, "have_module", lambda m: m not in ("cutlass", "triton"))
    assert b.environment() == CUTE_DSL[1]
    monkeypatch.setattr(backend_base, "have_module", lambda m: m != "triton")
    assert b.environment() == TRITON[1]
    monkeypatch.setattr(backend_base, "have_module", lambda m: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert b.environment() == "no CUDA GPU visible"
    monkeypatch.setattr(b, "runs_without_gpu", lambda: True)
    assert b.environment() is None
    monkeypatch.undo()
    monkeypatch.setattr(backend_base, "have_module", lambda m: True)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda: (8, 6))
    assert b.environment() == "needs compute capability >= 9.0, got 8.6"
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda: (9, 0))
    assert b.environment() is None


def test_plain_kernel_reason():
    assert plain_kernel_reason(P(), (8, 0)) is None
    assert plain_kernel_reason(P(capability=None), (9, 0)) is None
    assert plain_kernel_reason(P(device="cpu"), (8, 0)) == "needs a CUDA device, got cpu"
    assert plain_kernel_reason(P(capability=(8, 0)), (9, 0)) == "needs compute capability >= 9.0, got 8.0"
    assert plain_kernel_reason(P(capability=(8, 0)), (9, 0), "clusters") == "needs clusters, got 8.0"
    assert "dtype int8" in plain_kernel_reason(P(dtype="int8"), (8, 0))
    assert "not fused" in plain_kernel_reason(P(transform="ragged"), (8, 0))
    assert "row_starts" in plain_kernel_reason(P(row_starts=True), (8, 0))
    # Order: the device is judged before the dtype.
    assert plain_kernel_reason(P(device="cpu", dtype="int8"), (8, 0)).startswith("needs a CUDA device")


def test_import_is_cheap():
    code = ("import sys; import topk_core.kernels.backend_base, topk_core.kernels.scores; "
            "print(*(m in sys.modules for m in ('cutlass', 'triton')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_int32_layout_reason():
    """Kernels taking the row count and stride as int32 refuse what would be truncated at the launch."""
    from topk_core.api import make_problem
    from topk_core.kernels.backend_base import int32_layout_reason

    assert int32_layout_reason(P()) is None
    assert "rows=" in int32_layout_reason(P(rows=1 << 31))
    assert "stride" in int32_layout_reason(P(long_stride=True))
    wide = torch.empty(2, 64, device="meta").as_strided((2, 64), ((1 << 31) + 64, 1))
    assert make_problem(wide, 8).long_stride
    assert not make_problem(wide[:1], 8).long_stride  # one row: the stride is never used
    assert not make_problem(torch.empty(2, 64, device="meta"), 8).long_stride
