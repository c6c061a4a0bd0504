"""Every kernel variant family compiles for sm_90a on CPU (no GPU needed).

Each dtype x copy path x return_values, every cluster size, every capacity
bucket and every ``launch.VARIANT`` flag at least once; ``-m slow`` compiles every geometry ``checks`` can pick.
"""

import os
import subprocess
import sys

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


def _every_reg_geometry():
    geos = {(dtype, checks.reg_geometry(r, n, dtype)) for dtype in checks.DTYPES for r in (1, 8, 32, 128)
            for n in range(1024, checks.REG_MAX_N + 1, 4096)}
    return sorted((dtype, *g, checks.vector_width(dtype), True) for dtype, g in geos if g)


def _id(v):
    return "-".join("+".join(f for f, _ in x) if isinstance(x, tuple) else str(x) for x in v)


@pytest.mark.parametrize("variant", _variants(False), ids=_id)
def test_compiles_for_sm90a(variant):
    fn = launch.compile_kernel(*variant)
    assert fn is not None


def _reg_variants():
    out = []
    for dtype in checks.DTYPES:
        vec = checks.vector_width(dtype)
        for v in (vec, 1):
            for rv in (False, True):
                out.append((dtype, 4, 512, 8, v, rv, False))
    for cluster in checks.CLUSTER_SIZES:
        out.append(("float32", cluster, 1024, 8, 4, False, False))
    out += [("float32", 16, 1024, 16, 4, True, False), ("bfloat16", 8, 512, 32, 8, True, False),
            ("float32", 2, 512, 8, 4, False, True)]  # the last: dev timestamps
    # launch.REG_VARIANT's flags: gather (candidate buffer), warp_emit, early; per cluster size and dtype.
    for cluster in checks.CLUSTER_SIZES:
        out.append(("float32", cluster, 512, 16, 4, False, False, "", 8192, True, True))
    out += [("bfloat16", 8, 1024, 8, 8, True, False, "", 8192, False, True),
            ("float16", 4, 512, 8, 1, True, False, "", 64, True, False),
            ("float32", 16, 256, 32, 4, True, True, "", 8192, True, True),
            ("float32", 1, 256, 32, 4, False, False, "", 0, True, False)]
    # lean.py's flags (fkey, emit1, nozero): all three with the shipped variants, each alone, 16-bit.
    out += [("float32", 1, 1024, 8, 4, True, False, "", 0, True, True, True, True, True),
            ("float32", 8, 512, 8, 4, False, False, "", 8192, True, True, True, True, True),
            ("float32", 16, 512, 16, 1, True, False, "", 64, False, True, False, True, False),
            ("float32", 8, 1024, 16, 4, False, True, "", 8192, True, True, True, False, False),
            ("float32", 4, 512, 16, 4, True, False, "", 0, False, False, False, False, True),
            ("bfloat16", 16, 512, 16, 8, True, False, "", 0, False, False, True, True, True)]
    # preclear / upscan / emitb (regs.py): with the shipped fp32 flags, the CTA-scan offsets, 16-bit, alone.
    out += [("float32", 1, 1024, 8, 4, True, False, "", 0, True, True, True, True, True, True, True, True),
            ("float32", 8, 512, 32, 4, False, False, "", 0, False, True, True, True, True, True, True, True),
            ("bfloat16", 16, 512, 16, 8, True, False, "", 8192, True, True, False, True, False, True, True, True),
            ("float16", 4, 512, 8, 1, True, True, "", 64, False, False, False, False, False, True, False, False),
            ("float32", 2, 256, 32, 4, False, False, "", 8192, False, True, True, True, True, False, True, False),
            ("float32", 4, 512, 16, 4, True, False, "", 0, False, False, False, True, False, False, False, True)]
    # spare (regs.py: CTAs past the row's end exit): shipped fp32 flags at C=8/16, the CTA-scan offsets, 16-bit.
    out += [("float32", 8, 512, 32, 4, False, False, "", 0, False, True, True, True, True, True, True, False, True),
            ("float32", 16, 512, 16, 4, True, False, "", 8192, True, True, True, True, True, False, False, False, True),
            ("bfloat16", 2, 512, 16, 1, True, False, "", 64, True, True, False, False, False, False, False, False,
             True)]
    # push0 (regs.py: pass 0's group sums pushed to every CTA): shipped fp32 flags at C=16 and C=8 with spare, 16-bit.
    out += [("float32", 16, 512, 16, 4, False, False, "", 8192, True, True, True, True, True, False, False, False,
             False, True),
            ("float32", 8, 512, 8, 4, True, False, "", 8192, True, True, True, True, True, True, True, False, True,
             True),
            ("float16", 4, 512, 16, 1, True, False, "", 64, False, False, False, False, False, False, False, False,
             False, True)]
    return out


@pytest.mark.parametrize("variant", _reg_variants(), ids=_id)
def test_register_kernel_compiles_for_sm90a(variant):
    assert launch.compile_regs(*variant) is not None


@pytest.mark.slow(minutes=1)
@pytest.mark.parametrize("dtype", checks.DTYPES)  # one dtype per test: pytest-xdist spreads them over CI's cores
def test_every_smem_geometry_compiles(dtype):
    variants = [v for v in _variants(True) if v[0] == dtype]
    assert variants
    for variant in variants:
        assert launch.compile_kernel(*variant) is not None


@pytest.mark.slow(minutes=2)
@pytest.mark.parametrize("dtype", checks.DTYPES)
def test_every_reg_geometry_compiles(dtype):
    geos = [g for g in _every_reg_geometry() if g[0] == dtype]
    assert geos
    for _, c, t, e, vec, rv in geos:
        for rows, next_n in ((1, 1), (8, 1), (32, 1), (128, 1), (8, 2)):
            assert launch.compile_regs(dtype, c, t, e, vec, rv,
                                       **checks.reg_variant(rows, dtype, (c, t, e), next_n)) is not None


SM100_SCRIPT = """
from topk_radix import checks, launch
built = 0
for cluster in checks.CLUSTER_SIZES:
    built += launch.compile_kernel("float32", cluster, 8192, 1024, 4, cluster % 2 == 0) is not None
    built += launch.compile_regs("float32", cluster, 512, 16, 4, cluster % 2 == 1,
                                 **checks.reg_variant(8, "float32", (cluster, 512, 16), 1)) is not None
built += launch.compile_kernel("bfloat16", 4, 4096, 512, 8, True) is not None
built += launch.compile_regs("float16", 8, 512, 16, 8, False,
                             **checks.reg_variant(32, "float16", (8, 512, 16), 1)) is not None
print(built)
"""


def test_cluster_sizes_compile_for_sm100a(tmp_path):
    """The README claims sm_90+ and only sm_90 is run: both kernels at every cluster size (and one 16-bit build of
    each) also build for sm_100a. A compile, not a run."""
    env = dict(os.environ, CUTE_DSL_ARCH="sm_100a", CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", SM100_SCRIPT], env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == [str(2 * len(checks.CLUSTER_SIZES) + 2)]
