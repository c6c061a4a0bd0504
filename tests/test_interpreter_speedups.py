"""The root conftest.py's two cuts to Triton's interpreter (TRITON_INTERPRET=1): both in place, so CI's interpreter
phase keeps its time (a Triton whose internals moved would drop them silently), and the dtype cache answers as
Triton's own function does for every scalar, block and pointer type."""

import pytest

from topk_core.testing.triton_kit import interpreting

pytestmark = [pytest.mark.interpreter,
              pytest.mark.skipif(not interpreting(), reason="the cuts apply under TRITON_INTERPRET=1 only")]


def test_both_cuts_are_in_place():
    from triton.runtime import interpreter

    assert interpreter._patch_lang.__module__ == "conftest", interpreter._patch_lang
    assert interpreter._get_np_dtype.__module__ == "conftest", interpreter._get_np_dtype


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
