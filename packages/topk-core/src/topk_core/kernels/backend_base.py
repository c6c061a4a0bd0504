"""A base class for kernel backends: the environment checks and the supports/score/run wiring,
and the refusals that select-only CUDA kernels share (:func:`plain_kernel_reason`).

A backend package's ``_plugin.py`` subclasses :class:`KernelBackend`, names its checks
module and its launcher, and lists the modules it needs::

    class RadixCutlassBackend(KernelBackend):
        name = "radix_cutlass"
        requires = (CUTE_DSL,)
        min_capability = checks.MIN_CAPABILITY
        checks = checks                                # supports(problem), score(problem)
        launcher = "topk_radix_cutlass.launch:launch"  # imported on the first run() only

Importing this module never imports cutlass or triton (the entry point stays cheap):
``environment()`` imports torch only after the required modules are found, and ``run()``
imports the launcher (and with it the DSL) only when a call runs.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

from ..protocol import DTYPES, PROTOCOL_VERSION, Call, Problem
from ..validate import INT32_MAX
from .toolchain import have_module

#: ``(module, reason when missing)`` pairs for :attr:`KernelBackend.requires`.
CUTE_DSL = ("cutlass", "CuTe DSL (nvidia-cutlass-dsl) is not installed")
CUDA_PYTHON = ("cuda.bindings", "cuda-python (cuda.bindings) is not installed")
TRITON = ("triton", "triton is not installed")


def plain_kernel_reason(p: Problem, min_capability: tuple[int, int], need: str | None = None) -> str | None:
    """The refusals shared by CUDA kernels that select only: None, or the first reason of
    device, compute capability, dtype, fused transform and row_starts windows (in that order).

    ``need`` words the capability reason (default ``"compute capability >= X.Y"``).
    Pure; the caller catches exceptions (a checker never raises).
    """
    if p.device != "cuda":
        return f"needs a CUDA device, got {p.device}"
    if p.capability is not None and tuple(p.capability) < tuple(min_capability):
        need = need or f"compute capability >= {min_capability[0]}.{min_capability[1]}"
        return f"needs {need}, got {p.capability[0]}.{p.capability[1]}"
    if p.dtype not in DTYPES:
        return f"dtype {p.dtype} not supported (float32, bfloat16, float16)"
    if p.transform != "none":
        return f"transform {p.transform!r} is not fused (only 'none')"
    if p.row_starts:
        return "per-row window starts (row_starts) are not supported"
    return None


def int32_layout_reason(p: Problem) -> str | None:
    """For kernels that take the row count and the row stride as int32 arguments: None, or why ``p`` does not fit
    (a larger value would be truncated at the launch)."""
    if p.rows > INT32_MAX:
        return f"rows={p.rows} above {INT32_MAX} (an int32 kernel argument)"
    if p.long_stride:
        return f"a row stride above {INT32_MAX} elements (an int32 kernel argument)"
    return None


class KernelBackend:
    """Implements :class:`topk_core.protocol.Backend` from a few class attributes."""

    #: The entry-point name.
    name: str = ""
    protocol: int = PROTOCOL_VERSION
    #: Modules that must be importable, checked in order; the first missing one's reason is returned.
    requires: tuple[tuple[str, str], ...] = ()
    #: Lowest compute capability of the visible GPU (checked by ``environment``), or None.
    min_capability: tuple[int, int] | None = None
    #: The reason ``environment`` gives when torch sees no CUDA GPU.
    no_gpu_reason: str = "no CUDA GPU visible"
    #: The package's checks module: ``supports(problem)`` and ``score(problem)``.
    checks: ModuleType | None = None
    #: ``"module:function"``; ``run`` calls ``function(call)``, or ``function(problem, call)``
    #: when :attr:`launch_takes_problem`. Imported on the first call only (it imports the DSL).
    launcher: str = ""
    launch_takes_problem: bool = False

    def runs_without_gpu(self) -> bool:
        """True when the backend is usable without a CUDA GPU (e.g. under an interpreter)."""
        return False

    def environment(self) -> str | None:
        """None when usable on this machine, else why not."""
        for module, reason in self.requires:
            if not have_module(module):
                return reason
        if self.runs_without_gpu():
            return None
        import torch

        if not torch.cuda.is_available():
            return self.no_gpu_reason
        if self.min_capability is not None:
            cap = torch.cuda.get_device_capability()
            if cap < self.min_capability:
                need = self.min_capability
                return f"needs compute capability >= {need[0]}.{need[1]}, got {cap[0]}.{cap[1]}"
        return None

    def supports(self, problem: Problem) -> str | None:
        return self.checks.supports(problem)

    def score(self, problem: Problem) -> float:
        return self.checks.score(problem)

    def run(self, problem: Problem, call: Call) -> None:
        module, _, function = self.launcher.partition(":")
        launch = getattr(sys.modules.get(module) or importlib.import_module(module), function)
        if self.launch_takes_problem:
            launch(problem, call)
        else:
            launch(call)


def triton_interpreting() -> bool:
    """TRITON_INTERPRET=1 is on: Triton kernels run on CPU tensors through the interpreter."""
    return os.environ.get("TRITON_INTERPRET", "") not in ("", "0")


class TritonBackend(KernelBackend):
    """A :class:`KernelBackend` of Triton kernels: usable on CPU under the Triton interpreter, whose checks module
    takes ``supports(problem, interpreter=...)``."""

    requires = (TRITON,)
    no_gpu_reason = "no CUDA GPU (set TRITON_INTERPRET=1 to run on CPU through the Triton interpreter)"

    def runs_without_gpu(self) -> bool:
        return triton_interpreting()

    def supports(self, problem: Problem) -> str | None:
        return self.checks.supports(problem, interpreter=triton_interpreting())
