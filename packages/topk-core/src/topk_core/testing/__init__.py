"""Test kit: ``check_topk``, input generators and the conformance suites."""

from .check import TopKMismatch, check_topk, expected_lengths
from .conformance import BackendConformance, Claims
from .gpu_conformance import GpuConformance
from .inputs import KINDS, make_logits, make_seq_lens, poison_like
from .transform_conformance import TransformConformance

__all__ = [
    "KINDS",
    "BackendConformance",
    "Claims",
    "GpuConformance",
    "TopKMismatch",
    "TransformConformance",
    "check_topk",
    "expected_lengths",
    "make_logits",
    "make_seq_lens",
    "poison_like",
]
