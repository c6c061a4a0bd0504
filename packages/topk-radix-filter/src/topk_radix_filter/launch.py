"""Host side of radix_filter: compile cache and launch. No host sync: graph-capturable.

The kernel needs no global scratch (histogram and candidates live in shared
memory), so there is no workspace to manage and two streams never share state.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch

from topk_core.kernels.cute_launch import DTYPE_NAME, compile_row_topk, launch_row_topk
from topk_core.kernels.toolchain import compile_cached
from topk_core.protocol import Call


@dataclass(frozen=True)
class Variant:
    """Everything besides dtype/values that changes the generated code."""

    threads: int = 512
    cand: int = 4096
    unroll: int = 16
    agg: str = "uniform"
    prune: bool = True
    reverse: bool = True


#: The variant run() launches. Not yet chosen by measurement (NOTES.md): 16 loads in
#: flight per thread because 128 rows give one CTA per SM, which must then keep 32 KB
#: in flight by itself; ptxas gives 40 registers either way (3 CTAs per SM).
DEFAULT = Variant()


def _arch(device: torch.device) -> str:
    major, minor = torch.cuda.get_device_capability(device)
    return f"sm_{major}{minor}" + ("a" if major == 9 else "")


def compiled(dtype: str, with_values: bool, arch: str, variant: Variant = DEFAULT):
    """One build per (dtype, with_values, arch, variant); it serves every rows, N, k, next_n, ratio."""
    import cutlass

    key = ("radix_filter", "RadixFilter", 1, dtype, with_values, arch, tuple(sorted(asdict(variant).items())),
           getattr(cutlass, "__version__", "?"))
    return compile_cached(key, lambda: build(dtype, with_values, variant))


def build(dtype: str, with_values: bool, variant: Variant = DEFAULT, options: str = ""):
    """Compile from placeholder pointers (works without a GPU when CUTE_DSL_ARCH is set)."""
    from .kernel import RadixFilter

    return compile_row_topk(RadixFilter(dtype, with_values, **asdict(variant)), dtype, options)


def launch(call: Call, variant: Variant = DEFAULT) -> None:
    logits = call.logits
    if logits.shape[0] == 0:
        return
    fn = compiled(DTYPE_NAME[logits.dtype], call.values is not None, _arch(logits.device), variant)
    launch_row_topk(fn, call)
