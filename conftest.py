"""Repository-wide pytest hooks: the long builds first, longest first.

With pytest-xdist, ``--maxschedchunk 1`` hands each worker about one test at a time from this order, so the
slow-marked builds (minutes each, cold) start at once, spread over the workers, and the many short tests fill in
around them instead of leaving one build to run alone at the end (CI has two cores). ``slow(minutes=M)`` is a
cold-CI estimate that orders them; ``minutes(M)`` does the same for the long tests CI runs (CI leaves out the
slow-marked ones)."""


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


def _skip_nested_interpreter_patching() -> None:
    """Under TRITON_INTERPRET=1, Triton 3.6 re-patches ``triton.language`` (``inspect.getmembers`` over four
    modules) on every call of a ``@triton.jit`` helper from a kernel, although the kernel's own launch has patched
    it already and the helper's patch is never undone: a no-op that took a quarter of sgl_fused's interpreter
    time (cProfile of ``test_split_denormals_and_signed_zeros``: 134K calls, 35 of 146 s). Skip it while every
    language module the helper sees is patched; otherwise (and on any other Triton) patch as before."""
    import os

    if os.environ.get("TRITON_INTERPRET") != "1":
        return
    try:
        import inspect

        import triton.language as tl
        from triton.runtime import interpreter
    except ImportError:
        return
    original = getattr(interpreter, "_patch_lang", None)
    scope_class = getattr(interpreter, "_LangPatchScope", None)
    if original is None or scope_class is None:
        return

    def patch_lang(fn):
        langs = [v for v in fn.__globals__.values() if inspect.ismodule(v) and v in (tl, tl.core)]
        if langs and all(not tl.core.is_builtin(getattr(lang, "load", None)) for lang in langs):
            return scope_class()  # the launch's patch is in place (restored when the launch ends)
        return original(fn)

    interpreter._patch_lang = patch_lang


_skip_nested_interpreter_patching()
