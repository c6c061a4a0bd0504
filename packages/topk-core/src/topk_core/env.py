"""Every TOPK_* environment knob, read in one place.

Each accessor re-reads the environment so tests can monkeypatch it.
"""

from __future__ import annotations

import os
from pathlib import Path


def forced_backend() -> str | None:
    """TOPK_BACKEND: a backend name that replaces ``backend="auto"`` (explicit names win)."""
    value = os.environ.get("TOPK_BACKEND", "").strip()
    return value or None


def disabled_backends() -> frozenset[str]:
    """TOPK_DISABLED_BACKENDS: comma-separated names that discovery ignores."""
    raw = os.environ.get("TOPK_DISABLED_BACKENDS", "")
    return frozenset(name.strip() for name in raw.split(",") if name.strip())


def log_dispatch() -> bool:
    """TOPK_LOG_DISPATCH=1: log (at INFO, logger ``topk_core``) each new auto decision."""
    return os.environ.get("TOPK_LOG_DISPATCH", "") not in ("", "0", "false", "False")


def cache_dir() -> Path:
    """TOPK_CACHE_DIR: where compiled kernels are kept on disk (default ~/.cache/topk)."""
    raw = os.environ.get("TOPK_CACHE_DIR")
    return Path(raw) if raw else Path.home() / ".cache" / "topk"


def require_gpu() -> bool:
    """TOPK_REQUIRE_GPU=1: a skipped ``gpu`` test fails the pytest run instead of skipping."""
    return os.environ.get("TOPK_REQUIRE_GPU", "") not in ("", "0", "false", "False")


def sgl_compose() -> str:
    """TOPK_SGL_COMPOSE: how ``topk_core.sgl``'s ``auto`` decides between a backend's fused transform and a faster
    plain selection plus a transform pass: ``model`` (default, ``sgl.compose_faster``), ``always`` or ``never``."""
    value = os.environ.get("TOPK_SGL_COMPOSE", "").strip() or "model"
    if value not in ("model", "always", "never"):
        raise ValueError(f"TOPK_SGL_COMPOSE: expected model, always or never, got {value!r}")
    return value


#: Outside variables that change whether a backend can run here (so cached decisions expire).
_DISPATCH_VARS = ("TOPK_DISABLED_BACKENDS", "TRITON_INTERPRET", "CUTE_DSL_ARCH")


def dispatch_fingerprint() -> tuple:
    """The values of every variable that can change an ``auto`` decision."""
    return tuple(os.environ.get(name) for name in _DISPATCH_VARS)
