"""Entry-point target: the ``gvr`` backend object. Importing it never imports triton."""

from __future__ import annotations

from topk_core.kernels.backend_base import TritonBackend

from . import checks


class GvrBackend(TritonBackend):
    """Guess a threshold from the hint, verify it in one streaming pass, refine the survivors exactly."""

    name = "gvr"
    checks = checks
    launcher = "topk_gvr.launch:launch"


backend = GvrBackend()
