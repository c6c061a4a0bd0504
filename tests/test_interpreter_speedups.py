"""The root conftest.py's three cuts to Triton's interpreter (TRITON_INTERPRET=1): all in place, so CI's interpreter
phase keeps its time (a Triton whose internals moved would drop them silently); the dtype cache answers as Triton's
own function does for every scalar, block and pointer type; and the overflow check still fires where it would have
(``debug`` on), while with it off an overflowing add wraps as before."""

import pytest

from topk_core.testing.triton_kit import interpreting

pytestmark = [pytest.mark.interpreter,
              pytest.mark.skipif(not interpreting(), reason="the cuts apply under TRITON_INTERPRET=1 only")]


def test_the_cuts_are_in_place():
    from triton.runtime import interpreter

    assert interpreter._patch_lang.__module__ == "conftest", interpreter._patch_lang
    assert interpreter._get_np_dtype.__module__ == "conftest", interpreter._get_np_dtype
    from triton.language.semantic import TritonSemantic

    assert TritonSemantic.binary_op_sanitize_overflow_impl.__module__ == "conftest"


def test_dtype_cache_answers_as_triton():
    import triton.language as tl
    from triton.runtime import interpreter

    cached = interpreter._get_np_dtype
    original = cached.original
    scalars = [tl.int1, tl.int8, tl.uint8, tl.int16, tl.uint16, tl.int32, tl.uint32, tl.int64, tl.uint64, tl.float16,
               tl.bfloat16, tl.float32, tl.float64]
    types = scalars + [tl.pointer_type(t) for t in scalars] + [tl.block_type(t, [4, 8]) for t in scalars]
    types += [tl.block_type(tl.pointer_type(tl.float32), [16])]
    for _ in range(2):  # the second round from the cache
        for t in types:
            assert cached(t) == original(t), t


def test_overflow_check_fires_only_where_it_did():
    import dataclasses

    import torch
    import triton
    import triton.language as tl
    from triton.runtime import interpreter

    @triton.jit
    def add_max(x_ptr, out_ptr):
        tl.store(out_ptr, tl.load(x_ptr) + 2147483647)

    x = torch.ones(1, dtype=torch.int32)
    out = torch.zeros(1, dtype=torch.int32)
    add_max[(1,)](x, out)  # debug off (the interpreter's default): the add wraps, no check
    assert int(out[0]) == -(2**31)
    builder = interpreter.interpreter_builder
    options = builder.options
    builder.options = dataclasses.replace(options, debug=True)
    try:
        with pytest.raises(Exception, match="int32 overflow detected for operation add"):
            add_max[(1,)](x, out)
    finally:
        builder.options = options
