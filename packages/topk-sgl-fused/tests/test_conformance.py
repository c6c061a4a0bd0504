"""``sgl_fused`` against the topk_core conformance kit.

| class              | where                     | scale | suites                                   |
|--------------------|---------------------------|-------|------------------------------------------|
| TestInterpreter    | CPU, TRITON_INTERPRET=1   | small | Backend + Transform                      |
| TestGPU            | CUDA (H200)               | full  | Backend + Gpu (graphs, streams) + Transform |
"""

import os

import pytest
import torch

from topk_core.testing import BackendConformance, Claims, GpuConformance, TransformConformance

CLAIMS = Claims(transforms=("page_table", "ragged"), row_starts=True)
# The interpreter converts program ids with a numpy call that numpy 2.x deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Conversion of an array with ndim:DeprecationWarning")


@pytest.mark.interpreter
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") in ("", "0"), reason="needs TRITON_INTERPRET=1")
class TestInterpreter(BackendConformance, TransformConformance):
    backend = "sgl_fused"
    device = "cpu"
    scale = "small"
    claims = CLAIMS


@pytest.mark.gpu
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET", "") not in ("", "0") and torch.cuda.is_available(),
                    reason="GPU conformance runs compiled kernels, not the interpreter")
class TestGPU(BackendConformance, GpuConformance, TransformConformance):
    backend = "sgl_fused"
    device = "cuda"
    claims = CLAIMS
