"""Which kernel toolchains are present, and an in-memory + on-disk compile cache.

Nothing here imports cutlass or triton at module load: checking stays cheap.
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from .. import env

_lock = threading.Lock()
_compiled: dict[tuple, Any] = {}
#: Seconds spent in each build, by key (first-call compile time is reported from here).
build_seconds: dict[tuple, float] = {}


def have_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def cuda_reason(device: str = "cuda", capability=None, minimum=(8, 0)) -> str | None:
    """None if the problem's device is a CUDA GPU of at least ``minimum`` capability."""
    if device != "cuda":
        return f"needs a CUDA device, got {device}"
    if capability is not None and tuple(capability) < tuple(minimum):
        return f"needs compute capability >= {minimum[0]}.{minimum[1]}, got {capability[0]}.{capability[1]}"
    return None


def use_disk_cache() -> None:
    """Point the CuTe DSL's own file cache under TOPK_CACHE_DIR (unless the user set it)."""
    if "CUTE_DSL_CACHE_DIR" not in os.environ:
        path = env.cache_dir() / "cute-dsl"
        path.mkdir(parents=True, exist_ok=True)
        os.environ["CUTE_DSL_CACHE_DIR"] = str(path)
    if "TRITON_CACHE_DIR" not in os.environ:
        path = env.cache_dir() / "triton"
        path.mkdir(parents=True, exist_ok=True)
        os.environ["TRITON_CACHE_DIR"] = str(path)


def compile_cached(key: tuple, build: Callable[[], Any]) -> Any:
    """Return ``build()`` once per key for the process.

    Triton also caches its binaries on disk under TOPK_CACHE_DIR/triton. CuTe DSL's
    ``cute.compile`` (4.8.1) does not reuse its file cache across processes, so a
    new process recompiles CuTe DSL kernels (measured 3-4 s per variant on the H200).

    ``key`` must hold everything that changes the generated code (kernel name,
    dtype, k, block sizes, architecture, DSL version) and nothing that does not
    (batch size, row length): one build serves every batch and length.
    """
    fn = _compiled.get(key)
    if fn is not None:
        return fn
    with _lock:
        fn = _compiled.get(key)
        if fn is None:
            use_disk_cache()
            start = time.perf_counter()
            fn = build()
            build_seconds[key] = time.perf_counter() - start
            _compiled[key] = fn
    return fn
