"""Every kernel variant radix_filter can launch compiles for sm_90a from placeholders (no GPU): per dtype, each
variant ``plan`` picks for it (float32 13 of 16, 16-bit rows 8; float32's three ``longest_first`` variants
also their ordered entry), with and without values, both load widths (slow,
``nox -s compile``); CI's fast lane builds each planned variant once, rotating dtype, values and load width.

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
from itertools import product
from topk_radix_filter.launch import build, plan, PLANNED
dtype = sys.argv[2]
# what plan() can pick for this dtype (the 256-thread variants are float32's, LIGHT_16 and SHORT 16-bit rows')
picked = {plan(r, n, cap, sms, dtype) for r, n, cap, sms in product(range(1, 4200, 7), (1024, 16383, 16384, 65535,
          65536, 65537, 1 << 20), ((8, 0), (9, 0)), (114, 132))}
launched = [v for v in PLANNED.values() if v in picked]
builds = [(dtype, w, v, vec, o) for w in (False, True) for v in launched for vec in (True, False)
          for o in {False, v.longest_first > 0}]  # longest_first variants: the ordered entry too
t = time.time()
for n, (dtype, with_values, v, vec, ordered) in enumerate(builds):
    dump = os.path.join(sys.argv[1], str(n))
    os.makedirs(dump)
    build(dtype, with_values, v, options="--keep-ptx --dump-dir=" + dump, vec=vec, ordered=ordered)
targets = set()
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        if f.endswith(".ptx"):
            targets |= {l.split()[1] for l in open(os.path.join(root, f)) if l.startswith(".target")}
print(len(builds), sorted(targets), round(time.time() - t, 1))
"""


FAST_LANE_SCRIPT = """
import sys
from itertools import product
from topk_radix_filter.launch import build, plan, PLANNED
dtypes = ("float32", "bfloat16", "float16")
picks = {d: {plan(r, n, cap, sms, d) for r, n, cap, sms in product(range(1, 4200, 7), (1024, 16384, 65536, 1 << 20),
         ((8, 0), (9, 0)), (114, 132))} for d in dtypes}
built = 0
for i, v in enumerate(PLANNED.values()):
    usable = [d for d in dtypes if v in picks[d]]
    if usable:
        # longest_first variants launch their ordered entry past the first wave (the plain one is the plain variant's)
        ptx = build(usable[i % len(usable)], i % 2 == 1, v, vec=(i // 2) % 2 == 0, ordered=v.longest_first > 0).__ptx__
        built += ".target " + sys.argv[1] in ptx
print(built, sum(any(v in picks[d] for d in dtypes) for v in PLANNED.values()))
"""


@pytest.mark.minutes(0.6)
def test_each_planned_variant_compiles(tmp_path):
    """CI's fast lane: every variant ``plan`` can pick builds once for sm_90a (dtype, values and load width in
    turn); the whole product per dtype is the slow test below."""
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a", CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"), CUTE_DSL_KEEP_PTX="1")
    out = subprocess.run([sys.executable, "-c", FAST_LANE_SCRIPT, "sm_90a"], env=env, capture_output=True, text=True,
                         timeout=900, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    built, planned = map(int, out.stdout.split())
    assert built == planned >= 11


TARGET_SCRIPT = """
import sys
from itertools import product
from topk_radix_filter.launch import build, plan, PLANNED
capability, sms = (int(sys.argv[2]), int(sys.argv[3])), int(sys.argv[4])
dtypes = ("float32", "bfloat16", "float16")
picks = {d: {plan(r, n, capability, sms, d) for r, n in product(range(1, 4200, 7), (1024, 16384, 65536, 1 << 20))}
         for d in dtypes}
built = []
for i, v in enumerate(PLANNED.values()):
    usable = [d for d in dtypes if v in picks[d]]
    if usable:
        ordered = v.longest_first > 0 and capability >= (9, 0)  # launch orders rows on sm_90+ only
        ptx = build(usable[i % len(usable)], i % 2 == 1, v, vec=(i // 2) % 2 == 0, ordered=ordered).__ptx__
        built.append((".target " + sys.argv[1]) in ptx and (v.group > 1) == ("barrier.cluster" in ptx))
print(sum(built), len(built), sum(v.group > 1 for d in dtypes for v in picks[d]))
"""


@pytest.mark.minutes(0.5)
@pytest.mark.parametrize("arch,capability,sms", [("sm_80", (8, 0), 108), ("sm_100a", (10, 0), 148)])
def test_planned_variants_compile_for_other_targets(arch, capability, sms, tmp_path):
    """The README claims sm_80+ and only sm_90 is run: every variant ``plan`` picks on an A100 (no clusters) or a
    B200 (clusters) builds for that target, once each (dtype, values and load width in turn). A compile, not a run:
    nothing here says how fast or whether it is exact there."""
    env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"), CUTE_DSL_KEEP_PTX="1")
    out = subprocess.run([sys.executable, "-c", TARGET_SCRIPT, arch, *map(str, capability), str(sms)], env=env,
                         capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    built, picked, clustered = map(int, out.stdout.split())
    assert built == picked >= 10
    assert (clustered > 0) == (capability >= (9, 0))  # clusters only where the GPU has them


# One dtype per test, so pytest-xdist spreads the builds over CI's cores.
@pytest.mark.slow(minutes=3)
@pytest.mark.parametrize("arch,dtype", [("sm_90a", "float32"), ("sm_90a", "bfloat16"), ("sm_90a", "float16")])
def test_every_variant_compiles(arch, dtype, tmp_path):
    env = dict(os.environ, CUTE_DSL_ARCH=arch, CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), dtype], env=env, capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    count, rest = out.stdout.strip().split(" ", 1)
    # values x plan variant x load width, and the ordered entry of float32's three longest_first variants
    assert int(count) == 2 * (13 if dtype == "float32" else 8) * 2 + (3 * 2 * 2 if dtype == "float32" else 0)
    assert arch in rest


SPARSE1_SCRIPT = """
from dataclasses import replace
from topk_radix_filter.launch import build, SHORT_F32, SHORT_MANY
out = []
for v in (SHORT_MANY, SHORT_F32):
    for dtype, with_values, vec in (("float32", False, True), ("float32", True, False), ("bfloat16", True, True)):
        if dtype != "float32":
            v = replace(v, fastkey=False)  # 16-bit rows: pstore1's path with the order-key classification
        on = build(dtype, with_values, replace(v, sparse1=True), vec=vec).__ptx__
        off = build(dtype, with_values, replace(v, sparse1=False), vec=vec).__ptx__
        out.append(on != off and ".target sm_90a" in on)
print(sum(out), len(out))
"""


def test_sparse1_builds_compile(tmp_path):
    """The two-read path's ``sparse1`` builds (SHORT_MANY, SHORT_F32; float32 with and without values, scalar
    loads, and bfloat16 through pstore1's order-key classification) compile for sm_90a and differ from the
    builds without it (the flag is on in SHORT_MANY and SHORT_F32 since session 13)."""
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a", CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"), CUTE_DSL_KEEP_PTX="1")
    out = subprocess.run([sys.executable, "-c", SPARSE1_SCRIPT], env=env, capture_output=True, text=True, timeout=900,
                         cwd=tmp_path)  # the kept PTX files land there
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["6", "6"]


RAWBIN_SCRIPT = """
from dataclasses import replace
from topk_radix_filter.launch import build, SHORT_F32, SHORT_MANY
out = []
for v in (SHORT_MANY, SHORT_F32):
    for dtype, with_values, vec in (("float32", False, True), ("float32", True, False), ("bfloat16", True, True)):
        if dtype != "float32":
            v = replace(v, fastkey=False)
        on = build(dtype, with_values, replace(v, rawbin=True), vec=vec).__ptx__
        off = build(dtype, with_values, v, vec=vec).__ptx__
        out.append((on != off) == (dtype == "float32") and ".target sm_90a" in on)
print(sum(out), len(out))
"""


def test_rawbin_builds_compile(tmp_path):
    """``rawbin`` builds (SHORT_MANY, SHORT_F32; float32 with and without values, scalar loads) compile for sm_90a
    and differ from the shipped builds; 16-bit rows (no fastkey) ignore the flag: the same PTX."""
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a", CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"), CUTE_DSL_KEEP_PTX="1")
    out = subprocess.run([sys.executable, "-c", RAWBIN_SCRIPT], env=env, capture_output=True, text=True, timeout=900,
                         cwd=tmp_path)  # the kept PTX files land there
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["6", "6"]


ORDER_SCRIPT = """
from dataclasses import replace
from topk_radix_filter.launch import LIGHT, MANY_ROWS, SHORT_F32_WIDE, SHORT_MANY, build
from topk_radix_filter.row_order import compile_order
out = []
for pdl in (True, False):
    ptx = compile_order(True, pdl).__ptx__
    out.append(".target sm_90a" in ptx and ("griddepcontrol.launch_dependents" in ptx) == pdl)
for v, dtype, with_values, vec in ((SHORT_MANY, "float32", False, True), (SHORT_F32_WIDE, "float32", True, False),
                                   (LIGHT, "bfloat16", True, True), (MANY_ROWS, "float32", True, True)):
    for pdl in (True, False):
        lf = replace(v, longest_first=2, order_pdl=pdl)
        ptx = build(dtype, with_values, lf, vec=vec, ordered=True).__ptx__
        out.append(".target sm_90a" in ptx and ("griddepcontrol.wait" in ptx) == pdl)
    # the order's settings are host-only for the plain entry: the same code as the variant without them
    out.append(build(dtype, with_values, lf, vec=vec).__ptx__ == build(dtype, with_values, v, vec=vec).__ptx__)
print(sum(out), len(out))
"""


@pytest.mark.minutes(0.4)
def test_longest_first_builds_compile(tmp_path):
    """``longest_first`` (session 42; shipped in session 45): the one-CTA order kernel (``row_order.RowOrder``) and
    the row kernel's ordered entry of four many-wave variants compile for sm_90a, with ``griddepcontrol`` exactly
    where PDL is on; the plain entry of such a variant is the plain variant's code."""
    env = dict(os.environ, CUTE_DSL_ARCH="sm_90a", CUTE_DSL_CACHE_DIR=str(tmp_path / "cache"), CUTE_DSL_KEEP_PTX="1")
    out = subprocess.run([sys.executable, "-c", ORDER_SCRIPT], env=env, capture_output=True, text=True, timeout=900,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["14", "14"]
