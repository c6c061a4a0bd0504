"""Host side of ``gvr``: topk-sgl-fused's two-launch path with its bracket taken from the hint.

1. Guess: every filter program of row ``r`` gathers the row's scores at the hint's columns (request
   ``r // next_n``'s previous top k) and takes the lowest key among those inside the row as ``lo``.
2. Verify: the filter streams its chunk once and lists every key at or above ``lo`` as a candidate
   (``split.filter_kernel`` with HINT). With k distinct hint columns inside the row at least k keys are listed.
3. Refine: the select counts the list; with ``k <= count <= cap`` it ranks the k largest exactly, else (a hint with
   fewer than k usable columns, or more candidates than the cap) it runs the exact one-row path on the row.

No host reads of device data, so a call is CUDA-graph capturable after one eager call per geometry.
"""

from __future__ import annotations

from dataclasses import replace

from topk_core.protocol import Call
from topk_core.validate import INT32_MAX

#: Candidate room per row, at least, in multiples of k: a hint from the previous step lists k keys plus those that
#: rose above its lowest one since; more than the room runs the exact path (slow, still exact).
CAP_PER_K = 2
#: Beyond that, room for a quarter of the row while all rows' lists (two words a candidate) stay within this many
#: bytes. On randn rows of 128K columns a "previous" hint of noise 0.05 (~95% of the top 2048 kept) lists ~2.7K
#: candidates, of noise 0.3 (~72% kept) 10-13K, of noise 1.0 (~33%) 67-89K (topk_core.testing.make_hint, CPU).
LIST_BYTES = 1 << 25


def gvr_cap(rows: int, n: int, k: int, config) -> int:
    """The candidate cap per row: at least CAP_PER_K x k, up to a quarter of the row where LIST_BYTES allows (so
    that a hint from a less similar step slows the select down rather than sending the row to the exact path), never
    past the row (no more candidates exist), and at least the exact stream fallback's k + block; k + 2 x cap stays an
    int32 (``checks.MAX_K`` keeps that above k + block)."""
    room = min(n // 4, LIST_BYTES // (8 * max(rows, 1)))
    cap = max(k + config.block, min(n, max(config.cap, CAP_PER_K * k, room)))
    return min(cap, (INT32_MAX - k) // 2)  # the kernels size a row's list, k + 2 x cap words, in int32


def gvr_config(rows: int, n: int, k: int, sm_count: int):
    """topk-sgl-fused's two-launch config for the shape (its chunks and select), with room for the hint's
    candidates (``gvr_cap``)."""
    from topk_sgl_fused import launch as sgl

    config = sgl.pick_split(rows, n, k, sm_count)
    return replace(config, cap=gvr_cap(rows, n, k, config))


def launch(call: Call) -> None:
    """Run one validated call that has a hint (``supports`` refuses the others)."""
    from topk_sgl_fused import launch as sgl  # imports triton; kept out of the entry point

    if call.pre_idx is None:
        raise ValueError("pre_idx: gvr needs the hint (the previous step's top-k indices), got None")
    rows, n = call.logits.shape
    config = gvr_config(rows, n, call.top_k, sgl.sm_count(call.logits.device))
    sgl.launch_split(call, config, hint=call.pre_idx)
