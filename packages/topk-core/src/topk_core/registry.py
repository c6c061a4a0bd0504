"""Backend discovery through the entry-point group ``topk.backends``.

A backend that fails to load is logged and remembered with its error; it never
breaks ``import topk_core``. The reference backend registers the same way, and is
added directly when topk-core runs from a source tree without its metadata.
"""

from __future__ import annotations

import logging
import sys
import threading
from dataclasses import dataclass
from importlib.metadata import entry_points

from . import env
from .protocol import PROTOCOL_VERSION, Backend

GROUP = "topk.backends"
log = logging.getLogger("topk_core")


@dataclass(frozen=True)
class Entry:
    """One discovered backend, or why it could not be loaded."""

    name: str
    backend: Backend | None
    dist: str  # distribution that provides it
    version: str
    error: str | None = None


_lock = threading.Lock()
_entries: dict[str, Entry] | None = None
#: Bumped whenever the set of backends changes, so cached decisions expire.
generation = 0


def _load_one(ep) -> Entry:
    dist = getattr(ep, "dist", None)
    dist_name = dist.name if dist is not None else "?"
    version = dist.version if dist is not None else "?"
    try:
        obj = ep.load()
        backend = obj() if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "run")) else obj
        if getattr(backend, "name", None) != ep.name:
            raise TypeError(f"entry point {ep.name!r} gave a backend named {getattr(backend, 'name', None)!r}")
        if getattr(backend, "protocol", None) != PROTOCOL_VERSION:
            raise TypeError(
                f"backend {ep.name!r} speaks protocol {getattr(backend, 'protocol', None)!r}, "
                f"topk-core speaks {PROTOCOL_VERSION}"
            )
        for method in ("environment", "supports", "score", "run"):
            if not callable(getattr(backend, method, None)):
                raise TypeError(f"backend {ep.name!r} has no {method}()")
        # The loaded package's own version: an editable install's metadata keeps the version it was installed at.
        package = sys.modules.get(getattr(ep, "module", "").split(".")[0])
        version = str(getattr(package, "__version__", version))
        return Entry(ep.name, backend, dist_name, version)
    except Exception as exc:  # a broken plugin must not break discovery
        log.warning("topk: skipping backend %r from %s: %s: %s", ep.name, dist_name, type(exc).__name__, exc)
        return Entry(ep.name, None, dist_name, version, f"{type(exc).__name__}: {exc}")


def _discover() -> dict[str, Entry]:
    found: dict[str, Entry] = {}
    for ep in entry_points(group=GROUP):
        if ep.name in found and found[ep.name].backend is not None:
            log.warning("topk: backend %r registered twice; keeping the first", ep.name)
            continue
        found[ep.name] = _load_one(ep)
    if "reference" not in found or found["reference"].backend is None:
        from . import __about__, reference

        found["reference"] = Entry("reference", reference.backend, "topk-core", __about__.__version__)
    return found


def entries(refresh: bool = False) -> dict[str, Entry]:
    """Every discovered backend (loaded or failed), disabled ones excluded."""
    global _entries, generation
    with _lock:
        if _entries is None or refresh:
            _entries = _discover()
            generation += 1
        everything = _entries
    disabled = env.disabled_backends() - {"reference"}
    return {name: e for name, e in everything.items() if name not in disabled}


def get(name: str) -> Entry | None:
    return entries().get(name)


def available_backends() -> list[str]:
    """Names of the backends that loaded and are usable on this machine."""
    names = []
    for name, entry in sorted(entries().items()):
        if entry.backend is not None and entry.backend.environment() is None:
            names.append(name)
    return names


def register(backend: Backend) -> None:
    """Add a backend object by hand (tests, notebooks). Entry points are the normal way."""
    global generation
    entries()
    with _lock:
        assert _entries is not None
        _entries[backend.name] = Entry(backend.name, backend, "manual", "?")
        generation += 1
