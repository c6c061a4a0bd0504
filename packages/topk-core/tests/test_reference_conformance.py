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


class TestReferenceCPUWithHint(BackendConformance):
    """The suite as a hint-needing backend runs it: every case passes a "previous" hint."""

    backend = "reference"
    device = "cpu"
    scale = "small"
    hint = "previous"


@pytest.mark.gpu
class TestReferenceGPUWithHint(BackendConformance, GpuConformance):
    """The hinted suite on a GPU, graph replay and two streams included (GpuConformance passes the hint too)."""

    backend = "reference"
    device = "cuda"
    hint = "previous"
