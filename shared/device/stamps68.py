"""Dev (session 68): where a SHORT_MANY row's time goes, by phase, for 4096x8K's floor bar.

rows_scan.py (session 68, H100) put SHORT_MANY at ~15 ns a row of varlen 8K rows and ~18 ns a row of full ones: by
that line about half a row's cost does not grow with its length (histogram clears and bin searches, the candidate
refine, the k output slots, the prologue). This stamps thread 0's clock64 (cycles since ``_select`` began) around
pass 0, pass 1, the candidates' keying, the refine and every bin search (find_ab.py's stamped build, with the
two-read path's hooks added), on varlen and full rows, at one wave (792 rows) and at 4096.
Usage (device): bash shared/device/run.sh python3 shared/device/stamps68.py   (STAMP_COLD=1: on cold rows)
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
import find_ab  # noqa: E402
from cutlass import Int32  # noqa: E402

_stamped = find_ab.stamped_class


def two_read_stamped():
    """find_ab's stamped SampledFilter with marks around the two-read path's hooks too."""
    from topk_radix_filter.sampled import SampledFilter

    class TwoReadStamped(_stamped()):
        @cute.jit
        def _pass0(self, xv, nv: Int32, tail: Int32, xr, length: Int32, hist, tid: Int32):
            self.mark("pass0_in", tid)
            SampledFilter._pass0(self, xv, nv, tail, xr, length, hist, tid)
            self.mark("pass0_out", tid)

        @cute.jit
        def _pass1(self, xv, nv: Int32, b0: Int32, out, hist, ckey, cidx, ctl, tid: Int32, lane: Int32):
            self.mark("pass1_in", tid)
            SampledFilter._pass1(self, xv, nv, b0, out, hist, ckey, cidx, ctl, tid, lane)
            self.mark("pass1_out", tid)

        @cute.jit
        def _key_candidates(self, xr, length: Int32, ncand: Int32, b0: Int32, hist, ckey, tid: Int32, rv):
            self.mark("keycand_in", tid)
            SampledFilter._key_candidates(self, xr, length, ncand, b0, hist, ckey, tid, rv)
            self.mark("keycand_out", tid)

        @cute.jit
        def _refine(self, from_cand: cutlass.Constexpr, xr, out, hist, ckey, cidx, ctl, count: Int32, b0: Int32,
                    krem: Int32, k: Int32, tid: Int32, rv=None):
            self.mark("refine_in", tid)
            SampledFilter._refine(self, from_cand, xr, out, hist, ckey, cidx, ctl, count, b0, krem, k, tid, rv)
            self.mark("refine_out", tid)

    return TwoReadStamped


def main() -> None:
    import torch
    from rows_scan import full_rows

    from topk_core.bench.candidates import make_inputs
    from topk_core.bench.grids import Shape
    from topk_core.bench.timing import rotations
    from topk_radix_filter.launch import SHORT_MANY

    find_ab.stamped_class = two_read_stamped  # stamp_profile builds what this returns
    cold = os.environ.get("STAMP_COLD") == "1"
    dev = torch.device("cuda")
    for rows in (792, 4096):
        for full in (False, True):
            shape = Shape(rows, 8192)
            inputs = make_inputs(shape, rotations(shape.nbytes), dev)
            if full:
                full_rows(inputs, shape.n)
            print(f"{rows}x8192{' full' if full else ''} SHORT_MANY",
                  find_ab.stamp_profile(shape, SHORT_MANY, inputs, dev, cold), flush=True)


if __name__ == "__main__":
    main()
