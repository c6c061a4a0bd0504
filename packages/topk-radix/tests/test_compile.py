"""Every kernel variant family compiles for sm_90a on CPU (no GPU needed).

Each dtype x copy path x return_values, every cluster size, every capacity
bucket and every ``launch.VARIANT`` flag at least once; ``-m slow`` compiles every geometry ``checks`` can pick.
"""

import os

import pytest

pytest.importorskip("cutlass")
os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")

from topk_radix import checks, launch  # noqa: E402


def _variants(full: bool):
    out = []
    for dtype in checks.DTYPES:
        vec = checks.vector_width(dtype)
        for v in (vec, 1):
            for rv in (False, True):
                out.append((dtype, 8, 4096, 512, v, rv))
    for cluster in checks.CLUSTER_SIZES:
        out.append(("float32", cluster, 8192, 1024, 4, True))
    # Every launch.VARIANT flag on its own, and the measured static_slices + aggregate pair.
    for flags in (("static_slices",), ("aggregate",), ("prefix_offsets",), ("static_slices", "aggregate")):
        variant = tuple((f, True) for f in flags)
        out += [("float32", 16, 8192, 1024, 4, True, variant), ("bfloat16", 2, 4096, 512, 1, False, variant)]
    for cap in checks.CAPACITIES:
        if cap * 2 <= checks.SLICE_BYTES:
            out.append(("bfloat16", 16, cap, 512 if cap <= 4096 else 1024, 8, False))
    if full:
        for dtype in checks.DTYPES:
            geos = {checks.geometry(r, n, dtype) for r in (1, 8, 32, 128)
                    for n in range(1024, checks.max_n(dtype) + 1, 1024)}
            out += [(dtype, *g, checks.vector_width(dtype), True, ()) for g in geos if g]
    return sorted(set(out))


def _id(v):
    return "-".join("+".join(f for f, _ in x) if isinstance(x, tuple) else str(x) for x in v)


@pytest.mark.parametrize("variant", _variants(False), ids=_id)
def test_compiles_for_sm90a(variant):
    fn = launch.compile_kernel(*variant)
    assert fn is not None


@pytest.mark.slow
def test_every_geometry_compiles():
    for variant in _variants(True):
        launch.compile_kernel(*variant)
