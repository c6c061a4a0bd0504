"""Dev only (H200): where does sgl_fused's one-kernel fast path spend a row? Phase stamps from %globaltimer.

A copy of ``topk_sgl_fused/kernel.py`` is patched with barrier + timestamp stores (into the
unused counter words of each program's scratch) at the phase borders of ``_fast``, imported in
place of the real module, and launched through ``topk_core.sgl`` (page-table transform).
Prints, per cell, the median and max over programs of each phase in µs, and the event time
of one eager launch (warm L2, so a lower bound of the graph-replay time).
Usage: python3 shared/device/sgl_profile.py [--plain] [cells...]   (cells like 128x131072)
--plain: the default path, unpatched (for ncu: four calls per cell).
"""

import importlib.util
import pathlib
import sys
import tempfile

import torch

import topk_sgl_fused
from topk_core import sgl
from topk_core import workspace as ws
from topk_sgl_fused import launch

STAMP = '''
@triton.jit
def _stamp(ptr, slot):
    tl.debug_barrier()
    t = tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    tl.store(ptr + slot, (t & 0xFFFFFFFF).to(tl.int32))
'''
PATCHES = [  # (anchor, text inserted before it)
    ("    n_sure = cnt & 0xFFFF\n", "    _stamp(buf_key + 2 * cap + 8, 2)\n"),
    ("    if ok:\n        tl.debug_barrier()  # slot scratch", "    _stamp(buf_key + 2 * cap + 8, 3)\n"),
    ("        if n_s < k:\n", "        _stamp(buf_key + 2 * cap + 8, 4)\n"),
    ("        if (TRANSFORM == 1) | (return_values != 0):\n", "        _stamp(buf_key + 2 * cap + 8, 5)\n"),
    ("    tl.debug_barrier()\n    return ok\n", "    _stamp(buf_key + 2 * cap + 8, 6)\n"),
    ("        length = row_valid_length(seq_lens_ptr, b, next_n", "        _stamp(ctr_ptr + 8, 0)\n"),
]
AFTER = [("    lo, hi = _bracket(row_ptr, L, k, KEY_BITS, SAMPLE)\n", "    _stamp(buf_key + 2 * cap + 8, 1)\n")]
NAMES = ["bracket (+meta, sample)", "stream loop", "count scan", "list copy", "cand select", "transform/values"]


def patched_module():
    src = pathlib.Path(topk_sgl_fused.__file__).with_name("kernel.py").read_text()
    for anchor, text in PATCHES:
        assert src.count(anchor) == 1, anchor
        src = src.replace(anchor, text + anchor)
    for anchor, text in AFTER:
        assert src.count(anchor) == 1, anchor
        src = src.replace(anchor, anchor + text)
    src = src.replace("\nNUM_BINS =", STAMP + "\nNUM_BINS =", 1)
    path = pathlib.Path(tempfile.mkdtemp()) / "sgl_kernel_prof.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("sgl_kernel_prof", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def profile(rows: int, n: int, k: int = 2048):
    torch.manual_seed(0)
    dev = "cuda"
    x = torch.randn(rows, n, device=dev)
    lengths = torch.randint(n // 2, n + 1, (rows,), device=dev, dtype=torch.int32)
    table = torch.arange(n, dtype=torch.int32, device=dev).repeat(rows, 1)
    seen = {}
    orig = ws.scratch

    def spy(owner, device, nbytes, workspace=None):
        buf = orig(owner, device, nbytes, workspace)
        seen["buf"], seen["nbytes"] = buf, nbytes
        return buf

    launch.ws.scratch = spy
    try:
        for _ in range(3):
            out = sgl.fast_topk_transform_fused(x, lengths, table, None, k, backend="sgl_fused")
        torch.cuda.synchronize()
        seen["buf"].fill_(0)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        out = sgl.fast_topk_transform_fused(x, lengths, table, None, k, backend="sgl_fused")
        end.record()
        torch.cuda.synchronize()
    finally:
        launch.ws.scratch = orig
    ref = torch.where(torch.arange(n, device=dev)[None] < lengths[:, None], x, float("-inf")).topk(k).values
    got = torch.gather(x, 1, out.clamp(min=0).long()).sort(descending=True).values
    exact = bool(torch.equal(got, ref.sort(descending=True).values))
    config = launch.pick_config(rows, n, k, launch.sm_count(x.device))
    cap = launch.cap_for(config, k)
    per = 2 * cap + 32 + 2 * launch.slots_for(config, n) * launch.threads(config)
    grid = min(rows, launch.sm_count(x.device) * config.progs_per_sm)
    words = seen["buf"][: seen["nbytes"]].view(torch.int32)[: grid * per].view(grid, per)
    st = words[:, 2 * cap + 8: 2 * cap + 15].to(torch.int64).cpu()
    d = (st[:, 1:] - st[:, :-1]) % (1 << 32)
    ok = (st != 0).all(dim=1)
    us = start.elapsed_time(end) * 1e3
    print(f"{rows}x{n} k={k} config={config} grid={grid} exact={exact} one launch {us:.1f} us;"
          f" programs with all stamps: {int(ok.sum())}/{grid}")
    if ok.any():
        dd = d[ok].double() / 1e3
        for i, name in enumerate(NAMES):
            print(f"   {name:26s} median {dd[:, i].median():8.2f} us   max {dd[:, i].max():8.2f} us")
        print(f"   {'row total':26s} median {dd.sum(1).median():8.2f} us   max {dd.sum(1).max():8.2f} us")


def main():
    args = sys.argv[1:]
    plain = "--plain" in args
    args = [a for a in args if a != "--plain"]
    if not plain:
        launch.SPLIT = False  # the stamps are in the one-kernel path (kernel.py)
        mod = patched_module()
        topk_sgl_fused.kernel = mod
        sys.modules["topk_sgl_fused.kernel"] = mod
    cells = args or ["1x8192", "128x32768", "128x131072", "4096x8192"]
    for cell in cells:
        r, n = map(int, cell.split("x"))
        if plain:
            x = torch.randn(r, n, device="cuda")
            lengths = torch.randint(n // 2, n + 1, (r,), device="cuda", dtype=torch.int32)
            table = torch.arange(n, dtype=torch.int32, device="cuda").repeat(r, 1)
            for _ in range(4):
                sgl.fast_topk_transform_fused(x, lengths, table, None, 2048, backend="sgl_fused")
            torch.cuda.synchronize()
        else:
            profile(r, n)


if __name__ == "__main__":
    main()
