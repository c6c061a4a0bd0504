"""The transform pass (``kernels.transform_pass``) compiles for a CUDA sm_90 target, on CPU: each transform, the
page table with and without cu_seqlens_q. The compile runs in a child process without TRITON_INTERPRET."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("triton")

CHILD = """
import triton
from triton.backends.compiler import GPUTarget
from topk_core.kernels import transform_pass as tp

for code, has_cu in ((1, False), (1, True), (2, False)):
    signature = {"local_ptr": "*i32", "out_ptr": "*i32", "k": "i32", "table_ptr": "*i32", "table_stride": "i64",
                 "cu_ptr": "*i32", "num_req": "i32", "offsets_ptr": "*i32"}
    constexprs = dict(TRANSFORM=code, HAS_CU=has_cu, BLOCK=tp.BLOCK, REQ_BLOCK=tp.REQ_BLOCK)
    signature.update({name: "constexpr" for name in constexprs})
    src = triton.compiler.ASTSource(tp._transform_pass, signature, constexprs)
    ptx = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4}).asm["ptx"]
    assert ".target sm_90" in ptx
    gathers = ptx.count("ld.global")
    print(code, has_cu, gathers)
"""


def test_transform_pass_compiles_sm90():
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [line[:2] for line in lines] == [["1", "False"], ["1", "True"], ["2", "False"]]
    assert all(int(line[2]) > 0 for line in lines)
