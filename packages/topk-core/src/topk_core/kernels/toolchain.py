"""Which kernel toolchains are present, and an in-memory + on-disk compile cache.

Nothing here imports cutlass or triton at module load: checking stays cheap.

On-disk cache of CuTe DSL builds (``cute.compile`` in 4.8.1 never uses the DSL's own
file cache: it forces ``no_cache``). A build is serialised with the DSL's AOT export,
``JitCompiledFunction.dump_to_object(prefix)`` (the host launcher and the cubin in one
ELF object, as ``export_to_c`` writes it), and loaded back with
``cutlass.cute.runtime.load_module``, which links the object in memory (JITLink) and
returns a ``JitCompiledFunction`` taking the same arguments. Loading needs no GPU; the
CUDA library itself is loaded on the first call (or right after a disk load when a GPU
is present, so a bad file is rebuilt instead of failing the launch).

A file lives at ``TOPK_CACHE_DIR/cute-dsl/<sha256>.bin``; the hash covers the caller's
key, the DSL settings that shape code (arch, options, runtime library), the host CPU,
the source of the package that builds it and of ``topk_core.kernels``, and the file
format. It holds a magic tag, a digest of the rest, a JSON header and the object.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import platform
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from .. import env

log = logging.getLogger("topk_core")

_lock = threading.Lock()
_compiled: dict[tuple, Any] = {}
#: Seconds spent compiling (and storing) each build, by key (first-call compile time is reported from here).
build_seconds: dict[tuple, float] = {}
#: Seconds spent loading each build from the disk cache instead, by key.
load_seconds: dict[tuple, float] = {}

#: Bump when the file layout or what goes into the disk key changes.
DISK_FORMAT = 1
_MAGIC = b"TOPKBIN1"


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


class DiskCodec(Protocol):
    """How one toolchain's builds go to bytes and back (``CuteCodec`` for CuTe DSL)."""

    def applies(self) -> bool:
        """Whether to try the disk at all for this call (cheap; imports nothing)."""

    def tag(self) -> str:
        """Toolchain settings outside the caller's key that change the binary (joins the disk key)."""

    def dump(self, fn: Any, symbol: str) -> bytes | None:
        """The build as bytes, or None when this build cannot be stored (kept in memory only)."""

    def load(self, payload: bytes, symbol: str) -> Any:
        """A callable equal to the stored build; raises on anything unusable."""


class CuteCodec:
    """CuTe DSL builds through the DSL's AOT object export (``dump_to_object`` / ``load_module``)."""

    def applies(self) -> bool:
        # CuTe callers import cutlass to put its version in their key; a process that never
        # imported it (Triton only) does not pay for importing it here.
        return "cutlass" in sys.modules

    def tag(self) -> str:
        from cutlass.cutlass_dsl import CuTeDSL

        envar = CuTeDSL._get_dsl().envar
        # cache_key_str: every CUTE_DSL_* setting marked as changing compilation (arch included).
        return f"{envar.cache_key_str()}|arch={envar.arch}|{_host_tag()}"

    def _function_class(self):
        from cutlass.cutlass_dsl.cuda_jit_executor import CudaDialectJitCompiledFunction

        return CudaDialectJitCompiledFunction

    def dump(self, fn: Any, symbol: str) -> bytes | None:
        from cutlass.cutlass_dsl import CuTeDSL

        if type(fn) is not self._function_class() or CuTeDSL._get_dsl().envar.enable_tvm_ffi:
            return None  # Triton launchers, TVM-FFI builds: memory only
        if getattr(fn, "total_added_arguments", 0) or getattr(fn, "kernel_extra_args", None):
            return None  # a loaded copy would not know the extra workspace arguments
        import cutlass.cute.export  # noqa: F401  (installs the export provider)

        return fn.dump_to_object(symbol)

    def load(self, payload: bytes, symbol: str) -> Any:
        import cutlass.cute.export  # noqa: F401  (installs the load provider)
        from cutlass.cute.runtime import load_module

        fd, name = tempfile.mkstemp(prefix="topk-", suffix=".o")  # load_module takes a path
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
            fn = load_module(name)[symbol]  # reads the whole file, links it in memory
        finally:
            os.unlink(name)
        if type(fn) is not self._function_class():
            raise TypeError(f"loaded {type(fn).__name__}, expected a CudaDialectJitCompiledFunction")
        if _gpu_count() > 0:
            fn.to()  # load the cubin now: a wrong or broken one fails here and is rebuilt
        return fn


_default_codec = CuteCodec()
_fingerprints: dict[str, str] = {}
_host: list[str] = []


def _gpu_count() -> int:
    try:
        from cuda.bindings import runtime

        err, count = runtime.cudaGetDeviceCount()
        return int(count) if int(err) == 0 else 0
    except Exception:
        return 0


def _host_tag() -> str:
    """The host CPU: the stored launcher is native code built for it."""
    if not _host:
        fields = {}
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if not line.strip():
                        break  # the first processor is enough
                    name, _, value = line.partition(":")
                    fields[name.strip()] = value.strip()
        except OSError:
            pass
        names = ("model name", "flags", "Features", "CPU implementer", "CPU part")
        cpu = hashlib.sha256(repr([fields.get(n) for n in names]).encode()).hexdigest()[:16]
        _host.append(f"{sys.platform}|{platform.machine()}|{cpu}")
    return _host[0]


def _tree_digest(root: Path, digest) -> None:
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")


def source_fingerprint(build: Callable[[], Any]) -> str:
    """Digest of the source that ``build`` traces: its top-level package and ``topk_core.kernels``.

    Kernels are traced from Python source, so an edit must not load a stale binary.
    """
    module_name = getattr(build, "__module__", None) or ""
    package = module_name.partition(".")[0]
    fp = _fingerprints.get(package)
    if fp is None:
        digest = hashlib.sha256()
        _tree_digest(Path(__file__).resolve().parent, digest)
        module = sys.modules.get(package)
        file = getattr(module, "__file__", None)
        if file:
            here = Path(file).resolve()
            if here.name == "__init__.py":
                _tree_digest(here.parent, digest)
            else:
                digest.update(here.read_bytes())
        fp = _fingerprints[package] = digest.hexdigest()
    return fp


def disk_name(key: tuple, tag: str, source: str) -> str:
    """The cache file's stem: sha256 over everything that changes the binary."""
    text = repr((DISK_FORMAT, key, tag, source))
    return hashlib.sha256(text.encode()).hexdigest()


def _symbol(name: str) -> str:
    return "topk_" + name[:32]  # a C identifier, unique per build in a process


def _pack(header: dict, payload: bytes) -> bytes:
    meta = json.dumps(header, sort_keys=True).encode()
    body = len(meta).to_bytes(4, "little") + meta + payload
    return _MAGIC + hashlib.sha256(body).digest() + body


def _unpack(data: bytes) -> tuple[dict, bytes]:
    if data[: len(_MAGIC)] != _MAGIC:
        raise ValueError("not a topk cache file (bad magic)")
    digest, body = data[len(_MAGIC) : len(_MAGIC) + 32], data[len(_MAGIC) + 32 :]
    if hashlib.sha256(body).digest() != digest:
        raise ValueError("checksum mismatch (truncated or corrupt)")
    size = int.from_bytes(body[:4], "little")
    return json.loads(body[4 : 4 + size]), body[4 + size :]


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _disk_path(key: tuple, build: Callable[[], Any], codec: DiskCodec) -> Path | None:
    text = repr(key)
    if " at 0x" in text:  # an object address: not the same key in another process
        log.debug("compile cache: key %s has no stable repr; memory only", text)
        return None
    name = disk_name(key, codec.tag(), source_fingerprint(build))
    return env.cache_dir() / "cute-dsl" / f"{name}.bin"


def _disk_load(path: Path, key: tuple, codec: DiskCodec) -> Any:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.debug("compile cache: cannot read %s: %s", path, exc)
        return None
    try:
        header, payload = _unpack(data)
        if header.get("key") != repr(key) or header.get("format") != DISK_FORMAT:
            raise ValueError(f"header {header} does not match this key")
        return codec.load(payload, header["symbol"])
    except Exception as exc:  # any unusable file is rebuilt (and then overwritten)
        log.debug("compile cache: ignoring %s: %s: %s", path, type(exc).__name__, exc)
        return None


def _disk_store(path: Path, key: tuple, fn: Any, codec: DiskCodec) -> None:
    symbol = _symbol(path.stem)
    try:
        payload = codec.dump(fn, symbol)
        if payload is None:
            return
        write_atomic(path, _pack({"format": DISK_FORMAT, "key": repr(key), "symbol": symbol}, payload))
    except Exception as exc:
        log.debug("compile cache: could not store %s: %s: %s", path, type(exc).__name__, exc)


_DEFAULT: Any = object()  # compile_cached's codec when not given: CuteCodec


def compile_cached(key: tuple, build: Callable[[], Any], *, codec: DiskCodec | None = _DEFAULT) -> Any:
    """Return ``build()`` once per key for the process, and from disk in later processes.

    Triton caches its own binaries on disk under TOPK_CACHE_DIR/triton. CuTe DSL builds
    (whenever cutlass is imported and ``build`` returns a CuTe ``JitCompiledFunction``)
    are stored under TOPK_CACHE_DIR/cute-dsl and loaded back by a new process instead of
    compiling again (module docstring). ``codec=None`` keeps a build in memory only.
    ``build_seconds`` records compiles (with the store), ``load_seconds`` disk loads.

    ``key`` must hold everything that changes the generated code (kernel name,
    dtype, k, block sizes, architecture, DSL version) and nothing that does not
    (batch size, row length): one build serves every batch and length. Its ``repr``
    must be the same in every process (no object addresses, no sets).
    """
    fn = _compiled.get(key)
    if fn is not None:
        return fn
    with _lock:
        fn = _compiled.get(key)
        if fn is None:
            use_disk_cache()
            if codec is _DEFAULT:
                codec = _default_codec
            path = None
            start = time.perf_counter()
            if codec is not None and codec.applies():
                try:
                    path = _disk_path(key, build, codec)
                except Exception as exc:
                    log.debug("compile cache: no disk key for %r: %s: %s", key, type(exc).__name__, exc)
                if path is not None:
                    fn = _disk_load(path, key, codec)
            if fn is not None:
                load_seconds[key] = time.perf_counter() - start
            else:
                start = time.perf_counter()
                fn = build()
                if path is not None:
                    _disk_store(path, key, fn, codec)
                build_seconds[key] = time.perf_counter() - start
            _compiled[key] = fn
    return fn
