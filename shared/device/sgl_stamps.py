"""Dev only (H200, session 26): where a row's cycles go in sgl_fused's warp and resident kernels.

Copies of ``warp.py`` and ``resident.py`` are patched with a barrier and a ``%clock64`` store at each phase border
(into a stamp buffer passed as one more kernel argument) and swapped in for the real kernels, then the cells run
through ``topk_core.sgl`` on the bench's inputs (``make_inputs``: seq_lens uniform in [N/2, N]) with L2 flushed
before each call. Prints, per cell and transform, the median and max over programs of each phase in cycles
(and in µs at 1.98 GHz), and whether the result was exact.
The candidate select's parts (session 32) are stamped too (slots 11-14 of the patched bisect_select.py).
Usage: python3 shared/device/sgl_stamps.py [cells ...]   (cells like 128x32768 or 1x8192:page)
SGL_STAMP_PICK=pickos: ``sgl10_bench._setup``'s variant name first (e.g. the resident one-scan placement).
"""

import importlib.util
import os
import pathlib
import sys
import tempfile

import torch

import topk_sgl_fused
from topk_core import sgl
from topk_core.bench.candidates import make_inputs
from topk_core.bench.grids import Shape
from topk_core.testing import check_topk

STAMP = '''

@triton.jit
def _stamp(sp, slot):
    tl.debug_barrier()
    t = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    tl.store(sp + slot, t)
'''
SLOTS = 16
WARP = dict(
    file="warp.py", kernel="warp_kernel",
    patches=[  # (anchor, text before it, text after it)
        ("scratch_ptr, cap,\n", "", "                stamp_ptr,\n"),
        ("    b = tl.program_id(0)\n", "", "    sp = stamp_ptr + b * 16\n    _stamp(sp, 0)\n"),
        ("    if L <= k:\n        if SETUP_T", "    _stamp(sp, 1)\n", ""),
        ("def _warp_fast(row_ptr,", "", ""),
        ("    f_lo, f_hi = _fp32_bounds(lo, hi)", "    _stamp(sp, 2)\n", ""),
        ("    ok = (n_s <= k) & (n_s + n_c >= k) & (n_c <= cap)\n", "    _stamp(sp, 3)\n", ""),
        ("    return ok\n", "    _stamp(sp, 4)\n", ""),
        ("        if not ok:\n            tl.debug_barrier()  # scratch is reused", "        _stamp(sp, 5)\n", ""),
        ("ok = _warp_fast(row_ptr,", "", ""),
        ("            _exact_row(row_ptr, L, k, orow,", "            _stamp(sp, 15)\n", ""),
    ],
    replace=[("def _warp_fast(row_ptr,", "def _warp_fast(sp, row_ptr,"),
             ("ok = _warp_fast(row_ptr,", "ok = _warp_fast(sp, row_ptr,"),
             ("lo, hi = _bracket_bisect(row_ptr,", "lo, hi = _bracket_bisect(sp, row_ptr,"),
             ("settled = _select_bisect(n_s,", "settled = _select_bisect(sp, n_s,"),
             ("from .bisect_select import", "from topk_sgl_fused._stamped_bisect_select import")],
    names=["setup (length, window)", "bracket (sample)", "stream (classify, place)", "candidate select",
           "late page pass"],
)
EMIT_START = "    n_tie = 0\n    for off in range(0, n_cand"
EMIT_END = " " * 35 + "row_ptr, req, offset, page_ptr, page_stride, return_values, TRANSFORM)\n"
#: The bracket's own phases (slots 8-10), stamped in a patched bisect_select.py that the patched warp.py imports.
BRACKET = dict(
    file="bisect_select.py", kernel="_bracket_bisect",
    patches=[
        ("def _bracket_bisect(row_ptr,", "", ""),
        ("    key = order_key(xs)\n    k16", "", ""),
        ("            ok, lo, hi = _bracket_guess(xs, key, x0, r_lo, r_hi, SAMPLE, GUESS)\n", "",
         "            _stamp(sp, 9)\n"),
        ("        if not ok:\n            lo, hi = _bracket_search(k16, r_lo, r_hi, KEY_BITS, SAMPLE, BB, PB)\n", "",
         "            _stamp(sp, 10)\n"),
    ],
    replace=[("def _bracket_bisect(row_ptr,", "def _bracket_bisect(sp, row_ptr,"),
             ("    key = order_key(xs)\n    k16", "    key = order_key(xs)\n    _stamp(sp, 8)\n    k16"),
             # the candidate select's parts (session 32): slots 11-14
             ("def _select_bisect(n_out,", "def _select_bisect(sp, n_out,"),
             ("_select_from(n_out,", "_select_from(sp, n_out,"),
             ("    if ok:\n        _select_from(", "    _stamp(sp, 11)\n    if ok:\n        _select_from("),
             ("    # t is the rem-th largest", "    _stamp(sp, 12)\n    # t is the rem-th largest"),
             (EMIT_START, "    _stamp(sp, 13)\n" + EMIT_START),
             (EMIT_END, EMIT_END + "    _stamp(sp, 14)\n")],
    names=[],
)
RESIDENT = dict(
    file="resident.py", kernel="resident_kernel",
    patches=[
        ("                    offsets_ptr,\n", "", "                    stamp_ptr,\n"),
        ("    b = tl.program_id(0)\n", "", "    sp = stamp_ptr + b * 16\n    _stamp(sp, 0)\n"),
        ("    if L <= k:\n        _fill_short_row", "    _stamp(sp, 1)\n", ""),
        ("        key = tl.where(j < L, order_key(x), 0)", "", "\n        _stamp(sp, 2)"),
        ("            t, c_t = _kth_key_secant(key, k, L, x, x0, GUESS)\n", "", "            _stamp(sp, 3)\n"),
        ("                         page_ptr, page_stride, A, V, TH, TRANSFORM, REREAD)\n", "",
         "        _stamp(sp, 4)\n"),
    ],
    replace=[],
    names=["setup (length, window)", "row load + keys", "k-th key search", "placement (scan, stores)"],
)


def patched(spec):
    src = pathlib.Path(topk_sgl_fused.__file__).with_name(spec["file"]).read_text()
    for anchor, before, after in spec["patches"]:
        assert src.count(anchor) == 1, anchor
        src = src.replace(anchor, before + anchor + after)
    for old, new in spec["replace"]:
        src = src.replace(old, new)
    src = src.replace("\n\n@triton.jit", STAMP + "\n\n@triton.jit", 1)
    path = pathlib.Path(tempfile.mkdtemp()) / spec["file"]
    path.write_text(src)
    name = "topk_sgl_fused._stamped_" + spec["file"][:-3]
    mod_spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(mod_spec)
    sys.modules[name] = mod
    mod_spec.loader.exec_module(mod)
    return getattr(mod, spec["kernel"])


class Stamped:
    """``kernel[grid](*args, **kw)`` with the stamp buffer appended to the positional arguments."""

    def __init__(self, kernel, buf, seen):
        self.kernel, self.buf, self.seen = kernel, buf, seen

    def __getitem__(self, grid):
        def run(*args, **kw):
            self.seen.append((self.kernel.fn.__name__, grid, {k: v for k, v in kw.items() if k.isupper()}))
            return self.kernel[grid](*args, self.buf, **kw)
        return run


def main():
    cells = sys.argv[1:] or ["1x8192", "128x32768", "128x32768:page", "8x32768"]
    buf = torch.zeros(1 << 16, SLOTS, dtype=torch.int64, device="cuda")
    seen = []
    from topk_sgl_fused import resident, warp
    patched(BRACKET)  # imported by the patched warp.py
    warp.warp_kernel = Stamped(patched(WARP), buf, seen)
    resident.resident_kernel = Stamped(patched(RESIDENT), buf, seen)
    if os.environ.get("SGL_STAMP_PICK"):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from sgl10_bench import _setup
        _setup(os.environ["SGL_STAMP_PICK"])
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for cell in cells:
        shape_s, _, tr = cell.partition(":")
        rows, n = map(int, shape_s.split("x"))
        shape = Shape(rows, n)
        inputs = make_inputs(shape, 3, "cuda")
        table = torch.randint(0, 1 << 30, (rows, n), dtype=torch.int32, device="cuda")
        for i in range(4):
            x, lens = inputs.logits[i % 3], inputs.lengths[i % 3]
            seen.clear()
            buf.zero_()
            flush.zero_()
            torch.cuda.synchronize()
            if tr == "page":
                out = sgl.fast_topk_transform_fused(x, lens, table, None, shape.k, backend="sgl_fused")
            else:
                out = sgl.fast_topk_v2(x, lens, shape.k, backend="sgl_fused")
            torch.cuda.synchronize()
        local = out
        if tr == "page":  # the page table's entries back to columns: table[row, col] is unique per row by chance
            local = None
        exact = "not checked (page table)"
        if local is not None:
            check_topk(x, inputs.seq_lens[3 % 3], shape.k, local)
            exact = "exact"
        if not seen:
            print(f"{cell}: neither stamped kernel ran (another path picked)")
            continue
        name, grid, const = seen[-1]
        spec = WARP if name == "warp_kernel" else RESIDENT
        nst = len(spec["names"]) + 1
        st = buf[:rows, :nst].cpu()
        ok = (st != 0).all(dim=1)
        d = (st[ok, 1:] - st[ok, :-1]).double()
        print(f"=== {cell} {name} grid={grid} {exact}; programs with all stamps {int(ok.sum())}/{rows}; "
              f"const {const}")
        for i, nm in enumerate(spec["names"]):
            med, mx = d[:, i].median().item(), d[:, i].max().item()
            print(f"   {nm:28s} median {med:9.0f} cyc ({med / 1980:6.2f} us)   max {mx:9.0f}")
        if name == "warp_kernel":  # the bracket's parts: from its start (slot 1) to the sample's keys, the guess
            br = buf[:rows, [1, 8, 9, 2]].cpu()
            good = (br[:, 1:3] != 0).all(dim=1)
            if good.any():
                bd = (br[good, 1:] - br[good, :-1]).double().median(dim=0).values.tolist()
                print(f"   bracket parts (median over {int(good.sum())} programs that guessed): sample loaded "
                      f"{bd[0]:.0f}, guess {bd[1]:.0f}, rest (bisection if rejected) {bd[2]:.0f} cyc")
            sel = buf[:rows, [3, 11, 12, 13, 14, 4]].cpu()
            good = (sel != 0).all(dim=1)
            if good.any():
                sd = (sel[good, 1:] - sel[good, :-1]).double()
                med = sd.median(dim=0).values.tolist()
                print(f"   select parts (median over {int(good.sum())} programs): first chunk + sure count "
                      f"{med[0]:.0f}, search {med[1]:.0f}, count above {med[2]:.0f}, emit {med[3]:.0f}, "
                      f"rest {med[4]:.0f} cyc")
            print(f"   programs on the exact path: {int((buf[:rows, 15] != 0).sum())}/{rows}")
            print(f"   programs whose guess ran: {int((br[:, 2] != 0).sum())}/{rows}, rejected (bisected): "
                  f"{int((buf[:rows, 10] != 0).sum())}")
        tot = d.sum(1)
        print(f"   {'row total':28s} median {tot.median().item():9.0f} cyc ({tot.median().item() / 1980:6.2f} us)"
              f"   max {tot.max().item():9.0f}")


if __name__ == "__main__":
    main()
