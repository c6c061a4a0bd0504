"""``gvr`` against the topk_core conformance kit, with a hint on every case (the backend refuses calls without one):
the previous step's top k (``make_hint(mode="previous")``); the kit's hint test adds exact, random and empty hints.

| class           | where                   | scale | suites                            |
|-----------------|-------------------------|-------|-----------------------------------|
| TestInterpreter | CPU, TRITON_INTERPRET=1 | small | Backend                           |
| TestGPU         | CUDA (H200)             | full  | Backend + Gpu (graphs, streams)   |
"""

import os

import pytest
import torch

from topk_core.testing import BackendConformance, Claims, GpuConformance

CLAIMS = Claims()
# The interpreter converts program ids with a numpy call that numpy 2.x deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Conversion of an array with ndim:DeprecationWarning")


@pytest.mark.interpreter
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") in ("", "0"), reason="needs TRITON_INTERPRET=1")
class TestInterpreter(BackendConformance):
    backend = "gvr"
    device = "cpu"
    scale = "small"
    claims = CLAIMS
    hint = "previous"


@pytest.mark.gpu
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") not in ("", "0") and torch.cuda.is_available(),
                    reason="GPU conformance runs compiled kernels, not the interpreter")
class TestGPU(BackendConformance, GpuConformance):
    backend = "gvr"
    device = "cuda"
    claims = CLAIMS
    hint = "previous"
