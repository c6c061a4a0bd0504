"""pytest plugin (auto-loaded through the ``pytest11`` entry point).

Markers: ``gpu`` (needs CUDA; skipped without it), ``interpreter`` (Triton under
TRITON_INTERPRET=1 on CPU), ``slow``. With TOPK_REQUIRE_GPU=1 a skipped ``gpu``
test fails the run: a skipped GPU test is not a pass.
"""

from __future__ import annotations

import pytest

from .. import env


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU (run on the device)")
    config.addinivalue_line("markers", "interpreter: Triton kernels under TRITON_INTERPRET=1 on CPU")
    config.addinivalue_line("markers", "slow: long-running")


def pytest_collection_modifyitems(config, items):
    import torch

    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and "gpu" in item.keywords and env.require_gpu():
        report.outcome = "failed"
        report.longrepr = f"TOPK_REQUIRE_GPU=1 but this GPU test was skipped: {report.longrepr}"
