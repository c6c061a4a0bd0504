"""Every kernel variant radix_filter can launch compiles for sm_90a from placeholders (no GPU).

CUTE_DSL_ARCH picks the target (without it the DSL targets sm_100a). A fresh cache
directory makes this a real compile, not a disk-cache hit.
"""

import os
import subprocess
import sys

import pytest

pytest.importorskip("cutlass")

SCRIPT = """
import os, sys, time
from topk_radix_filter.launch import build, PLANNED
launched = list(PLANNED.values())  # what plan() can pick
builds = [(d, w, v, vec) for d in ("float32", "bfloat16", "float16") for w in (False, True) for v in launched
          for vec in (True, False)]
t = time.time()
for n, (dtype, with_values, v, vec) in enumerate(builds):
    dump = os.path.join(sys.argv[1], str(n))
    os.makedirs(dump)
    build(dtype, with_values, v, options="--keep-ptx --dump-dir=" + dump, vec=vec)
targets = set()
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        if f.endswith(".ptx"):
            targets |= {l.split()[1] for l in open(os.path.join(root, f)) if l.startswith(".target")}
print(len(builds), sorted(targets), round(time.time() - t, 1))
"""


@pytest.mark.parametrize("arch", ["sm_90a"])
def test_every_variant_compiles(arch, tmp_path):
    env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), "all"], env=env, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    count, rest = out.stdout.strip().split(" ", 1)
    assert int(count) == 3 * 2 * 11 * 2  # dtype x values x plan variant x load width
    assert arch in rest
