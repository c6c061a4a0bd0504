"""The reference backend passes the whole conformance kit on CPU (and on GPU when present)."""

import pytest

from topk_core.testing import BackendConformance, GpuConformance, TransformConformance


class TestReferenceCPU(BackendConformance, TransformConformance):
    backend = "reference"
    device = "cpu"
    scale = "small"


@pytest.mark.gpu
class TestReferenceGPU(BackendConformance, GpuConformance, TransformConformance):
    backend = "reference"
    device = "cuda"
