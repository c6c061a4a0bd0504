"""``top_k_varlen``: argument checks, dispatch, and output allocation.

Imports no optional backend; backends arrive through ``registry``.
"""

from __future__ import annotations

import functools

import torch

from . import auto, env, registry, validate
from .errors import BackendNotSupportedError
from .protocol import Call, Problem


@functools.cache
def _capability(index: int) -> tuple[int, int]:
    return tuple(torch.cuda.get_device_capability(index))


def device_capability(device: torch.device) -> tuple[int, int] | None:
    if device.type != "cuda":
        return None
    index = device.index if device.index is not None else torch.cuda.current_device()
    return _capability(index)


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def make_problem(logits: torch.Tensor, k: int, **facts) -> Problem:
    rows, n = logits.shape
    return Problem(rows=rows, n=n, k=k, dtype=_dtype_name(logits.dtype), device=logits.device.type,
                   capability=device_capability(logits.device),
                   long_stride=rows > 1 and logits.stride(0) > validate.INT32_MAX, **facts)


def resolve_backend(backend: str, problem: Problem) -> str:
    """The backend name to run: explicit names are checked, ``auto`` ranks."""
    if not isinstance(backend, str):
        raise ValueError(f"backend: expected a backend name string, got {validate.type_name(backend)}")
    source = "backend"
    if backend == "auto" and env.forced_backend():
        backend, source = env.forced_backend(), "backend (auto, replaced by TOPK_BACKEND)"
    if backend == "auto":
        return auto.choose(problem)
    entries = registry.entries()
    if backend not in entries:
        installed = ", ".join(sorted(entries)) or "none"
        raise ValueError(f"{source}: unknown backend {backend!r}. Installed: {installed}.")
    verdict = auto.judge(backend, problem)
    if not verdict.usable:
        raise BackendNotSupportedError(backend, verdict.reason)
    return backend


def dispatch(problem: Problem, call: Call, backend: str) -> str:
    """Run ``call`` on the chosen backend. Explicit choices never fall back."""
    return run_on(resolve_backend(backend, problem), problem, call)


def run_on(name: str, problem: Problem, call: Call) -> str:
    """Run ``call`` on the resolved backend ``name``, with the logits' device current (Triton launches on the
    current device's stream; the backends take that device's current stream)."""
    if problem.rows:
        backend = registry.get(name).backend
        if call.logits.device.type == "cuda":
            with torch.cuda.device(call.logits.device):
                backend.run(problem, call)
        else:
            backend.run(problem, call)
    return name


def check_scalars(top_k, next_n, compress_ratio) -> None:
    """``top_k``, ``next_n`` and ``compress_ratio``: ints in [1, 2**31 - 1] (not bools)."""
    validate.check_int("top_k", top_k, 1)
    validate.check_int("next_n", next_n, 1)
    validate.check_int("compress_ratio", compress_ratio, 1)


def top_k_varlen(
    logits: torch.Tensor,
    seq_lens: torch.Tensor,
    top_k: int,
    pre_idx: torch.Tensor | None = None,
    compress_ratio: int = 1,
    next_n: int = 1,
    return_values: bool = False,
    out_indices: torch.Tensor | None = None,
    out_values: torch.Tensor | None = None,
    backend: str = "auto",
    load_balance: bool = True,
    workspace: dict | None = None,
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Top-k columns of each row over its own valid length (see spec/top_k_varlen.md).

    Returns ``(indices int32 [rows, top_k], values [rows, top_k] or None)``.
    """
    if torch.compiler.is_compiling() and out_indices is None and out_values is None and workspace is None:
        from .ops import top_k_varlen_op

        return top_k_varlen_op(logits, seq_lens, top_k, pre_idx, compress_ratio, next_n,
                               return_values, backend, load_balance)
    validate.check_logits(logits)
    check_scalars(top_k, next_n, compress_ratio)
    rows, _ = logits.shape
    if rows % next_n:
        raise ValueError(f"logits: expected num_rows divisible by next_n={next_n}, got {rows} rows")
    validate.check_index_vector("seq_lens", seq_lens, logits.device, rows // next_n,
                                f"one per request: num_rows {rows} // next_n {next_n}")
    validate.check_bool("return_values", return_values)
    validate.check_bool("load_balance", load_balance)
    if workspace is not None and not isinstance(workspace, dict):
        raise ValueError(f"workspace: expected a dict or None, got {validate.type_name(workspace)}")
    hint = validate.usable_hint(pre_idx, rows // next_n, top_k, logits.device)
    problem = make_problem(logits, top_k, next_n=next_n, compress_ratio=compress_ratio,
                           has_hint=hint is not None, return_values=return_values, load_balance=load_balance)
    # The backend first: a refusal (a k beyond its limit, say) comes before the outputs are allocated.
    name = resolve_backend(backend, problem)
    if out_indices is None:
        indices = torch.empty((rows, top_k), dtype=torch.int32, device=logits.device)
    else:
        indices = validate.check_out("out_indices", out_indices, rows, top_k, torch.int32, logits.device)
    values = None
    if return_values:
        if out_values is None:
            values = torch.empty((rows, top_k), dtype=logits.dtype, device=logits.device)
        else:
            values = validate.check_out("out_values", out_values, rows, top_k, logits.dtype, logits.device)
    call = Call(logits=logits, seq_lens=validate.unit_stride(seq_lens), top_k=top_k, indices=indices, values=values,
                next_n=next_n, compress_ratio=compress_ratio, pre_idx=hint,
                load_balance=load_balance, workspace=workspace)
    run_on(name, problem, call)
    return indices, values


def explain(logits: torch.Tensor | None = None, seq_lens=None, top_k: int = 2048, *,
            problem: Problem | None = None, **facts) -> str:
    """Why ``auto`` picks what it picks: every installed backend's score or refusal.

    Pass either the call's tensors (``logits``, ``top_k`` and options) or a ``Problem``.
    """
    if problem is None:
        if logits is None:
            raise ValueError("explain: pass logits (and top_k) or problem=Problem(...)")
        validate.check_logits(logits)
        check_scalars(top_k, facts.get("next_n", 1), facts.get("compress_ratio", 1))
        for flag in ("return_values", "load_balance"):
            if flag in facts:
                validate.check_bool(flag, facts[flag])
        hint = facts.pop("pre_idx", None) is not None
        problem = make_problem(logits, top_k, has_hint=hint, **facts)
    return auto.explain_text(problem)
