"""Default scratch memory for backends, one per (backend, device, stream).

The rules (spec, "workspace"): created zeroed by the first eager call on a
stream; a kernel that uses it leaves it as it found it; a graph capture that
would have to create it raises instead of allocating from the graph pool.
A caller-owned ``workspace`` dict replaces all this and must not be shared by
launches that can overlap.

A buffer that grows is replaced. If it was handed out during a CUDA graph capture, the old one is kept alive
(``_retired``) until ``release_resources``: the graph holds its address, and freeing it would let the caching
allocator hand that memory to another tensor that the graph's replays then overwrite (capture shape A, warm up a
larger shape B, replay A). A buffer no capture saw is simply dropped, and sizes past 4 KB are rounded up to a power
of two, so an eager batch that grows a row at a time keeps one buffer, and graphs warmed up smallest first keep a
geometric series (at most twice the largest) rather than one buffer per size.

``launch_sequence``: held by a backend across a call's launches that pass state through its scratch (a filter, then
a select): two host threads on one stream would otherwise interleave them (filter A, filter B, select A, select B).
Graphs replayed on two streams at once that captured one stream's default scratch share it and can race the same
way: replay them one at a time, or give each its own ``workspace``.
"""

from __future__ import annotations

import threading

import torch

_lock = threading.Lock()
_retire_lock = threading.Lock()  # apart from _lock, which default scratch holds while it creates a buffer
_scratch: dict[tuple, torch.Tensor] = {}
#: Buffers replaced by larger ones, per device: graphs captured before the growth still use them.
_retired: dict[str, list[torch.Tensor]] = {}
#: data_ptr() of the buffers handed out during a capture (under _retire_lock): only those are retired.
_in_graphs: set[int] = set()
#: See the module's docstring.
launch_sequence = threading.RLock()
#: Buffers up to this many bytes keep their exact size; larger ones are rounded up to a power of two.
EXACT_BYTES = 4096


def capturing(device: torch.device) -> bool:
    """Whether the current stream of ``device`` is capturing a CUDA graph (its launches are recorded, not run)."""
    return device.type == "cuda" and torch.cuda.is_current_stream_capturing()


def _bucket(nbytes: int) -> int:
    return nbytes if nbytes <= EXACT_BYTES else 1 << (nbytes - 1).bit_length()


def _canonical(device: torch.device) -> torch.device:
    """``cuda`` without an index is the current CUDA device, so both spellings find the same buffer."""
    if device.type == "cuda" and device.index is None:
        return torch.device("cuda", torch.cuda.current_device())
    return device


def _stream_key(device: torch.device) -> int:
    if device.type != "cuda":
        return 0
    return torch.cuda.current_stream(device).stream_id


def _get_or_create(store: dict, key, owner: str, device: torch.device, nbytes: int, where: str) -> torch.Tensor:
    buf = store.get(key)
    in_capture = capturing(device)
    if buf is not None and buf.numel() >= nbytes and buf.device == device:
        if in_capture:
            with _retire_lock:
                _in_graphs.add(buf.data_ptr())
        return buf
    if in_capture:
        raise RuntimeError(
            f"{owner}: {where} needs {nbytes} bytes on {device} and does not exist yet; run one eager "
            "call with the same shape on the capturing stream before capturing a CUDA graph"
        )
    if buf is not None:
        with _retire_lock:
            if buf.data_ptr() in _in_graphs:
                _retired.setdefault(str(buf.device), []).append(buf)
    buf = torch.zeros(_bucket(nbytes), dtype=torch.uint8, device=device)
    store[key] = buf
    return buf


def scratch(owner: str, device: torch.device | str, nbytes: int, workspace: dict | None = None) -> torch.Tensor:
    """A zeroed uint8 buffer of at least ``nbytes`` for ``owner`` on the current stream.

    With a caller ``workspace`` dict, the buffer lives in it under ``owner`` (grown
    when too small, which must not happen during capture).
    """
    device = _canonical(torch.device(device))
    if workspace is not None:
        return _get_or_create(workspace, owner, owner, device, nbytes, f"workspace[{owner!r}]")
    key = (owner, str(device), _stream_key(device))
    with _lock:
        return _get_or_create(_scratch, key, owner, device, nbytes, "the default per-stream scratch")


def release_resources(device=None) -> int:
    """Synchronise ``device`` and free all default scratch on it, and every buffer that a larger one replaced there
    (default scratch or a caller's ``workspace``); ``device`` None: every device that has any (each synchronised).
    ``"cuda"`` without an index is the current CUDA device. Graphs captured before must not be replayed after this.

    Returns the number of bytes released.
    """
    dev = torch.device(device) if device is not None else None
    if dev is not None and torch.cuda.is_available():
        dev = _canonical(dev)
    with _lock, _retire_lock:
        names = {key[1] for key in _scratch} | set(_retired)
    for name in sorted(names if dev is None else {str(dev)}):
        if name.startswith("cuda") and torch.cuda.is_available():
            torch.cuda.synchronize(torch.device(name))
    freed = 0
    with _lock:
        for key in list(_scratch):
            if dev is None or key[1] == str(dev):
                buf = _scratch.pop(key)
                freed += buf.numel()
                with _retire_lock:
                    _in_graphs.discard(buf.data_ptr())
    with _retire_lock:
        for name in list(_retired):
            if dev is None or name == str(dev):
                for buf in _retired.pop(name):
                    freed += buf.numel()
                    _in_graphs.discard(buf.data_ptr())
    return freed
