"""A base class for kernel backends: the environment checks and the supports/score/run wiring.

A backend package's ``_plugin.py`` subclasses :class:`KernelBackend`, names its checks
module and its launcher, and lists the modules it needs::

    class RadixBackend(KernelBackend):
        name = "radix"
        requires = (CUTE_DSL,)
        checks = checks                      # supports(problem) and score(problem)
        launcher = "topk_radix.launch:launch"  # imported on the first run() only

Importing this module never imports torch, cutlass or triton (the entry point stays cheap):
``environment()`` imports torch only after the required modules are found, and ``run()``
imports the launcher only when a call runs.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from ..protocol import PROTOCOL_VERSION, Call, Problem
from .toolchain import have_module

#: ``(module, reason when missing)`` pairs for :attr:`KernelBackend.requires`.
CUTE_DSL = ("cutlass", "CuTe DSL (nvidia-cutlass-dsl) is not installed")
CUDA_PYTHON = ("cuda.bindings", "cuda-python (cuda.bindings) is not installed")
TRITON = ("triton", "triton is not installed")


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
