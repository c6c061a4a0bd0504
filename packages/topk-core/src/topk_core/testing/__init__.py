"""Test kit: ``check_topk``, input and hint generators and the conformance suites.

The suites need pytest; they load on first use so ``check_topk`` and the
generators work without it (the benchmark uses them).
"""

from .check import TopKMismatch, check_topk, expected_lengths
from .inputs import (
    HINT_MODES,
    KINDS,
    PAGE_STRIDE,
    as_layout,
    clamped_windows,
    local_columns,
    make_hint,
    make_logits,
    make_seq_lens,
    paged_requests,
    poison_like,
    poisoned_call,
    ragged_decode_rows,
    random_page_tables,
)

_SUITES = {
    "BackendConformance": "conformance",
    "Claims": "conformance",
    "GpuConformance": "gpu_conformance",
    "TransformConformance": "transform_conformance",
}


def __getattr__(name):
    if name in _SUITES:
        import importlib

        return getattr(importlib.import_module(f".{_SUITES[name]}", __name__), name)
    raise AttributeError(name)


__all__ = [
    "HINT_MODES",
    "KINDS",
    "PAGE_STRIDE",
    "BackendConformance",
    "Claims",
    "GpuConformance",
    "TopKMismatch",
    "TransformConformance",
    "as_layout",
    "check_topk",
    "clamped_windows",
    "expected_lengths",
    "local_columns",
    "make_hint",
    "make_logits",
    "make_seq_lens",
    "paged_requests",
    "ragged_decode_rows",
    "random_page_tables",
    "poison_like",
    "poisoned_call",
]
