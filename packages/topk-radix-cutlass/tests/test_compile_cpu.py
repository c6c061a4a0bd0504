"""Every kernel variant radix_cutlass can launch (row and split paths) compiles for sm_90a
(and sm_80: fp32, fp16; sm_100a: fp32) from placeholders: the README claims sm_80+, and only sm_90 is run.

Runs without a GPU: CUTE_DSL_ARCH picks the target (without it the DSL targets sm_100a).
"""

import os
import subprocess
import sys

import pytest

pytest.importorskip("cutlass")

SCRIPT = """
import os, sys
from topk_radix_cutlass.launch import build, build_split, split_variants, variants
dtypes = sys.argv[2].split(",")
for dtype, with_values, threads, vec, first_bits in variants(dtypes):
    d = os.path.join(sys.argv[1], f"{dtype}-{with_values}-{threads}-{vec}-{first_bits}")
    os.makedirs(d)
    fn = build(dtype, with_values, threads, vec, first_bits, options="--keep-ptx --dump-dir=" + d)
for dtype, with_values, vec in split_variants(dtypes):
    d = os.path.join(sys.argv[1], f"split-{dtype}-{with_values}-{vec}")
    os.makedirs(d)
    fn = build_split(dtype, with_values, vec, options="--keep-ptx --dump-dir=" + d)
ptx = [os.path.join(r, f) for r, _, fs in os.walk(sys.argv[1]) for f in fs if f.endswith(".ptx")]
print(len(ptx), sorted({l.split()[1] for f in ptx for l in open(f) if l.startswith(".target")}))
"""


# One dtype per test, so pytest-xdist spreads the builds over CI's cores. CI builds float32 and one 16-bit dtype for
# sm_90a (fp16's code differs from bf16's in the key only); the others are slow (``nox -s compile``).
_SLOW = pytest.mark.slow(minutes=1)


@pytest.mark.minutes(0.6)
@pytest.mark.parametrize("arch, dtypes", [("sm_90a", "float32"), ("sm_90a", "bfloat16"),
                                          pytest.param("sm_90a", "float16", marks=_SLOW),
                                          pytest.param("sm_80", "float32", marks=_SLOW),
                                          pytest.param("sm_80", "float16", marks=_SLOW),
                                          ("sm_100a", "float32")])
def test_every_variant_compiles(arch, dtypes, tmp_path):
    env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), dtypes], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    count, targets = out.stdout.strip().split(" ", 1)
    assert int(count) == (16 + 4) * len(dtypes.split(","))  # row kernels + split (one PTX for both kernels)
    assert arch in targets
