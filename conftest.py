"""Repository-wide pytest hooks: the long builds first, longest first.

With pytest-xdist, ``--maxschedchunk 1`` hands each worker about one test at a time from this order, so the
slow-marked builds (minutes each, cold) start at once, spread over the workers, and the many short tests fill in
around them instead of leaving one build to run alone at the end (CI has two cores). ``slow(minutes=M)`` is a
cold-CI estimate that orders them; ``minutes(M)`` does the same for the long tests CI runs (CI leaves out the
slow-marked ones).

Under TRITON_INTERPRET=1 it also cuts three of Triton 3.6's interpreter costs (``_faster_triton_interpreter``)."""


def _minutes(item) -> float | None:
    for name in ("minutes", "slow"):
        mark = item.get_closest_marker(name)
        if mark is not None:
            return float(mark.args[0] if mark.args else mark.kwargs.get("minutes", 0))
    return None


def _order(item):
    minutes = _minutes(item)
    return (minutes is None, -(minutes or 0))


def pytest_collection_modifyitems(items):
    items.sort(key=_order)  # stable: the collection order within equal keys


def _faster_triton_interpreter() -> None:
    """Under TRITON_INTERPRET=1 (Triton 3.6): three of the interpreter's own costs cut, the kernels and the checks
    unchanged (sgl_fused's ``test_split_denormals_and_signed_zeros`` 55 -> 22 s; CI's interpreter tests on two
    cores 1007 -> 600 s with the first two, the same tests passed). Elsewhere, or where Triton's internals differ,
    nothing changes."""
    import os

    if os.environ.get("TRITON_INTERPRET") != "1":
        return
    try:
        import triton.language as tl
        from triton.runtime import interpreter
    except ImportError:
        return
    _skip_nested_patching(interpreter, tl)
    _cache_np_dtypes(interpreter, tl)
    _skip_discarded_overflow_checks(interpreter)


def _skip_nested_patching(interpreter, tl) -> None:
    """Triton re-patches ``triton.language`` (``inspect.getmembers`` over four modules) on every call of a
    ``@triton.jit`` helper, although the launch patched it already and the helper's patch is never undone: a no-op
    that took a quarter of the time (cProfile of that test: 134K calls, 35 of 146 s). Skipped while every language
    module the helper sees is patched; otherwise patched as before."""
    import inspect

    original = getattr(interpreter, "_patch_lang", None)
    scope_class = getattr(interpreter, "_LangPatchScope", None)
    if original is None or scope_class is None:
        return
    langs_of = {}  # a function's language modules (its globals'): looked up once

    def patch_lang(fn):
        langs = langs_of.get(fn)
        if langs is None:
            langs = langs_of[fn] = [v for v in fn.__globals__.values() if inspect.ismodule(v) and v in (tl, tl.core)]
        if langs and all(not tl.core.is_builtin(getattr(lang, "load", None)) for lang in langs):
            return scope_class()  # the launch's patch is in place (restored when the launch ends)
        return original(fn)

    interpreter._patch_lang = patch_lang


def _cache_np_dtypes(interpreter, tl) -> None:
    """Triton builds an 18-entry dtype table on every ``_get_np_dtype`` call (449K calls, 14 of 146 s). The answer
    depends on the scalar type alone (a block's is its element's): computed once per scalar type by the original."""
    original = getattr(interpreter, "_get_np_dtype", None)
    if original is None:
        return
    cache = {}

    def get_np_dtype(tt_dtype):
        scalar = tt_dtype.element_ty if isinstance(tt_dtype, tl.block_type) else tt_dtype
        try:
            return cache[scalar]
        except KeyError:
            cache[scalar] = value = original(scalar)
            return value
        except TypeError:  # an unhashable type: as before
            return original(tt_dtype)

    get_np_dtype.original = original  # tests/test_interpreter_speedups.py compares the two
    interpreter._get_np_dtype = get_np_dtype


def _skip_discarded_overflow_checks(interpreter) -> None:
    """Triton's front end checks every integer add, sub and mul for overflow (``sanitize_overflow``, on in the
    interpreter) by redoing it in int64, comparing with the type's range and handing the result to ``device_assert``,
    which returns at once without ``options.debug`` (always off in the interpreter): the check's ops (38% of the
    same profile) make a result that is dropped. Skipped while the interpreter's builder has ``debug`` off."""
    try:
        from triton.language.semantic import TritonSemantic
    except ImportError:
        return
    original = getattr(TritonSemantic, "binary_op_sanitize_overflow_impl", None)
    builder = getattr(interpreter, "interpreter_builder", None)
    if original is None or builder is None:
        return

    def sanitize_overflow(self, lhs, rhs, binary_op):
        if self.builder is builder and not builder.options.debug:
            return None  # device_assert would return before using the check
        return original(self, lhs, rhs, binary_op)

    TritonSemantic.binary_op_sanitize_overflow_impl = sanitize_overflow


_faster_triton_interpreter()
