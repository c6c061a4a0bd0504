"""``topk_core.sgl``'s composed path (a plain selection, then the transform pass) through the transform
conformance suite, with TOPK_SGL_COMPOSE=always. On a GPU ``auto`` picks its own backends (a plain selection
backend and a fused one differ there); under the Triton interpreter the plain selection is forced onto sgl_fused
and the fused choice onto the reference, so that the two differ and the pass runs in the interpreter."""

from __future__ import annotations

import pytest

from topk_core import auto, sgl
from topk_core.testing import TransformConformance
from topk_core.testing.triton_kit import TRITON_MARKS, interpreting, triton_device

pytestmark = [*TRITON_MARKS, pytest.mark.filterwarnings("ignore:Conversion of an array with ndim:DeprecationWarning")]


class TestComposed(TransformConformance):
    backend = "auto"
    device = triton_device().type
    # on a GPU, also rows past what one lookup step and one pass program cover
    transform_shapes = TransformConformance.transform_shapes + (() if interpreting() else ((300, 40000, 2048),))

    @pytest.fixture(autouse=True)
    def _compose_always(self, monkeypatch, request):
        monkeypatch.setenv("TOPK_SGL_COMPOSE", "always")
        if interpreting():
            monkeypatch.setattr(auto, "choose", lambda p: "sgl_fused" if p.transform == "none" else "reference")
        offered, composed = [], []
        should, real = sgl._should_compose, sgl._compose
        monkeypatch.setattr(sgl, "_should_compose", lambda *args: offered.append(1) or should(*args))
        monkeypatch.setattr(sgl, "_compose", lambda *args: (composed.append(args[2].transform), real(*args)))
        yield
        assert len(composed) == len(offered), "a call auto offered to compose ran fused"
        # without windows the plain and fused choices differ, so these compose (windows: as auto decides)
        if "transform" in request.node.name and not any(w in request.node.name for w in ("True", "starts")):
            assert composed, "the composed path did not run"
        if "transform" not in request.node.name:
            assert not offered, "a call without a transform was offered to compose"
