"""Argument checks. Each failure is a ValueError naming the argument, the
expectation and what was given, raised before anything is launched.

Only shapes, dtypes, devices and strides are read: never device data.
"""

from __future__ import annotations

import warnings

import torch

LOGITS_DTYPES = (torch.float32, torch.bfloat16, torch.float16)


#: Sizes and counts reach the kernels as int32 arguments.
INT32_MAX = (1 << 31) - 1


def type_name(value) -> str:
    """``int``, ``bool`` ..., or ``numpy.bool`` for a type outside the builtins (so that numpy's ``bool`` is not
    mistaken for Python's)."""
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _desc(t) -> str:
    if not isinstance(t, torch.Tensor):
        return type_name(t)
    return f"{t.dtype} tensor of shape {tuple(t.shape)} on {t.device}"


def check_int(name: str, value, minimum: int, maximum: int = INT32_MAX,
              why: str = "the kernels take it as an int32") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: expected an int >= {minimum}, got {type_name(value)} {value!r}")
    if value < minimum:
        raise ValueError(f"{name}: expected an int >= {minimum}, got {value}")
    if value > maximum:
        raise ValueError(f"{name}: expected an int <= {maximum} ({why}), got {value}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: expected a bool, got {type_name(value)} {value!r}")
    return value


def check_logits(logits, name: str = "logits") -> None:
    if not isinstance(logits, torch.Tensor):
        raise ValueError(f"{name}: expected a torch.Tensor, got {_desc(logits)}")
    if logits.dim() != 2:
        raise ValueError(f"{name}: expected a 2-D tensor [num_rows, N], got {_desc(logits)}")
    if logits.dtype not in LOGITS_DTYPES:
        raise ValueError(f"{name}: expected float32, bfloat16 or float16, got {_desc(logits)}")
    if logits.shape[1] > 1 and logits.stride(1) != 1:
        raise ValueError(f"{name}: expected unit stride in the last dimension, got strides {logits.stride()}")
    if logits.device.type not in ("cuda", "cpu"):
        raise ValueError(f"{name}: expected a CUDA or CPU tensor, got {_desc(logits)}")


def check_index_vector(name: str, t, device: torch.device, length: int | None, what: str) -> None:
    """A 1-D int32 tensor on ``device`` (``length`` elements when given)."""
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"{name}: expected a 1-D int32 tensor ({what}), got {_desc(t)}")
    if t.dim() != 1 or t.dtype != torch.int32:
        raise ValueError(f"{name}: expected a 1-D int32 tensor ({what}), got {_desc(t)}")
    if t.device != device:
        raise ValueError(f"{name}: expected a tensor on {device} (the logits device), got {_desc(t)}")
    if length is not None and t.numel() != length:
        raise ValueError(f"{name}: expected {length} elements ({what}), got {t.numel()}")


def unit_stride(t: torch.Tensor | None) -> torch.Tensor | None:
    """A validated 1-D index vector as the kernels read it (base pointer, unit stride): a strided view is
    copied, anything else passed through."""
    return t if t is None or t.is_contiguous() else t.contiguous()


def check_out(name: str, out, rows: int, k: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """Return the ``[rows, k]`` view of a caller's out buffer (1-D buffers are viewed in place)."""
    if not isinstance(out, torch.Tensor):
        raise ValueError(f"{name}: expected a {dtype} tensor of shape ({rows}, {k}), got {_desc(out)}")
    if out.dtype != dtype:
        raise ValueError(f"{name}: expected dtype {dtype}, got {_desc(out)}")
    if out.device != device:
        raise ValueError(f"{name}: expected a tensor on {device} (the logits device), got {_desc(out)}")
    if not out.is_contiguous():
        raise ValueError(f"{name}: expected a contiguous tensor, got strides {out.stride()}")
    if out.numel() and out.data_ptr() % 16:
        raise ValueError(f"{name}: expected a 16-byte aligned buffer, got address {out.data_ptr():#x}")
    if out.dim() == 1 and out.numel() == rows * k:
        return out.view(rows, k)
    if tuple(out.shape) != (rows, k):
        raise ValueError(
            f"{name}: expected shape ({rows}, {k}) or 1-D with {rows * k} elements, got {_desc(out)}"
        )
    return out


def usable_hint(pre_idx, requests: int, k: int, device: torch.device) -> torch.Tensor | None:
    """The hint if it follows the rules, else None with a RuntimeWarning (the call runs hint-free)."""
    if pre_idx is None:
        return None
    problem = None
    if not isinstance(pre_idx, torch.Tensor):
        problem = f"expected a tensor, got {type_name(pre_idx)}"
    elif pre_idx.dtype != torch.int32:
        problem = f"expected int32, got {pre_idx.dtype}"
    elif tuple(pre_idx.shape) != (requests, k):
        problem = f"expected shape ({requests}, {k}), got {tuple(pre_idx.shape)}"
    elif pre_idx.device != device:
        problem = f"expected device {device}, got {pre_idx.device}"
    elif not pre_idx.is_contiguous():
        problem = "expected a contiguous tensor"
    elif pre_idx.numel() and pre_idx.data_ptr() % 16:
        problem = "expected a 16-byte aligned buffer"
    if problem is not None:
        warnings.warn(f"pre_idx discarded ({problem}); running without the hint", RuntimeWarning, stacklevel=3)
        return None
    return pre_idx
