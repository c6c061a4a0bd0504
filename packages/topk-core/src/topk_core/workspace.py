"""Default scratch memory for backends, one per (backend, device, stream).

The rules (spec, "workspace"): created zeroed by the first eager call on a
stream; a kernel that uses it leaves it as it found it; a graph capture that
would have to create it raises instead of allocating from the graph pool.
A caller-owned ``workspace`` dict replaces all this and must not be shared by
launches that can overlap.

A buffer that grows is replaced, and the old one is kept alive (``_retired``) until
``release_resources``: a CUDA graph captured earlier holds its address, and freeing it
would let the caching allocator hand that memory to another tensor that the graph's
replays then overwrite (capture shape A, warm up a larger shape B, replay A).
"""

from __future__ import annotations

import threading

import torch

_lock = threading.Lock()
_retire_lock = threading.Lock()  # apart from _lock, which default scratch holds while it creates a buffer
_scratch: dict[tuple, torch.Tensor] = {}
#: Buffers replaced by larger ones, per device: graphs captured before the growth still use them.
_retired: dict[str, list[torch.Tensor]] = {}


def _stream_key(device: torch.device) -> int:
    if device.type != "cuda":
        return 0
    return torch.cuda.current_stream(device).stream_id


def _get_or_create(store: dict, key, owner: str, device: torch.device, nbytes: int, where: str) -> torch.Tensor:
    buf = store.get(key)
    if buf is not None and buf.numel() >= nbytes and buf.device == device:
        return buf
    if device.type == "cuda" and torch.cuda.is_current_stream_capturing():
        raise RuntimeError(
            f"{owner}: {where} needs {nbytes} bytes on {device} and does not exist yet; run one eager "
            "call with the same shape on the capturing stream before capturing a CUDA graph"
        )
    if buf is not None:
        with _retire_lock:
            _retired.setdefault(str(buf.device), []).append(buf)
    buf = torch.zeros(nbytes, dtype=torch.uint8, device=device)
    store[key] = buf
    return buf


def scratch(owner: str, device: torch.device, nbytes: int, workspace: dict | None = None) -> torch.Tensor:
    """A zeroed uint8 buffer of at least ``nbytes`` for ``owner`` on the current stream.

    With a caller ``workspace`` dict, the buffer lives in it under ``owner`` (grown
    when too small, which must not happen during capture).
    """
    if workspace is not None:
        return _get_or_create(workspace, owner, owner, device, nbytes, f"workspace[{owner!r}]")
    key = (owner, str(device), _stream_key(device))
    with _lock:
        return _get_or_create(_scratch, key, owner, device, nbytes, "the default per-stream scratch")


def release_resources(device=None) -> int:
    """Synchronise ``device`` (default: current CUDA device) and free all default scratch on it, and every buffer
    that a larger one replaced there (default scratch or a caller's ``workspace``). Graphs captured before must not
    be replayed after this.

    Returns the number of bytes released.
    """
    dev = torch.device(device) if device is not None else None
    if dev is not None and dev.type == "cuda" and dev.index is None and torch.cuda.is_available():
        dev = torch.device("cuda", torch.cuda.current_device())
    if dev is not None and dev.type == "cuda" and torch.cuda.is_available():
        torch.cuda.synchronize(dev)
    freed = 0
    with _lock:
        for key in list(_scratch):
            if dev is None or key[1] == str(dev):
                freed += _scratch.pop(key).numel()
    with _retire_lock:
        for name in list(_retired):
            if dev is None or name == str(dev):
                freed += sum(buf.numel() for buf in _retired.pop(name))
    return freed
