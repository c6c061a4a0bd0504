"""For tests of Triton kernels that run compiled on a GPU or under TRITON_INTERPRET=1 on CPU
(needs pytest): the marks such a module sets, and the device its tensors go on."""

from __future__ import annotations

import pytest
import torch

from ..kernels.backend_base import triton_interpreting

interpreting = triton_interpreting  # TRITON_INTERPRET=1: the kernels run on CPU tensors


def triton_device() -> torch.device:
    """CPU under the interpreter, else the GPU."""
    return torch.device("cpu" if interpreting() else "cuda")


#: ``pytestmark`` of such a test module: in the interpreter lane, skipped with neither an
#: interpreter nor a GPU.
TRITON_MARKS = [
    pytest.mark.interpreter,
    pytest.mark.skipif(not interpreting() and not torch.cuda.is_available(),
                       reason="needs TRITON_INTERPRET=1 or a GPU"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
