"""Rows past the cluster wave: run them beside it, not after it.

The GPCs do not divide by a cluster: on the H200, clusters of 8 CTAs at 2 CTAs per SM
fit 30 at once, not 33, so 32x128K ran as 30 rows and then 2 more, each as long as a
whole row (NOTES.md, session 13). Here the rows that miss the wave go, in the same call,
to radix_filter's one-CTA-per-row kernel on a forked stream, whose CTAs land on the SMs
the clusters leave free. Fork and join are stream-event edges, so CUDA-graph capture
records them as a fork and join in the graph. The split is a function of static facts
only: rows, N, the geometry and the device's cluster occupancy (queried once).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import torch

from topk_core.protocol import Call

from . import checks

#: radix_filter's variant for the side rows: one 1024-thread CTA per row (session 15, fork_probe.py, 32x128K, µs:
#: FEW_ROWS 16.9-17.1 against its own plan's clusters of three 21.1-23.7, which compete with the wave for GPCs).
SIDE_VARIANT = "FEW_ROWS"


_active: dict[tuple[int, int, int], int] = {}
#: Why the last occupancy query gave no answer (tests print it).
no_answer = ""


def active_clusters(device_index: int, cluster: int, per_sm: int) -> int:
    """Clusters of ``cluster`` CTAs, ``per_sm`` CTAs to an SM, that the device runs at once (0: unknown).

    Asked as clusters of ``cluster // per_sm`` one-per-SM CTAs (the same SMs per GPC), from the driver's
    occupancy calculator (``cutlass.utils.HardwareInfo``). H200: (8, 2) -> 30, (4, 1) -> 30 (gpc_probe.cu).
    Answers are kept per process, a failure (0) too: the query compiles a kernel, which no call should repeat.
    """
    global no_answer
    key = (device_index, cluster, per_sm)
    if key in _active:
        return _active[key]
    if cluster % per_sm or cluster // per_sm < 2:
        return 0
    try:
        from cuda.bindings import driver
        from cutlass.utils import HardwareInfo

        with torch.cuda.device(device_index):
            if int(driver.cuCtxGetCurrent()[1]) == 0:  # no current context yet on this thread: the primary one
                dev = driver.cuDeviceGet(device_index)[1]
                driver.cuCtxSetCurrent(driver.cuDevicePrimaryCtxRetain(dev)[1])
            _active[key] = int(HardwareInfo(device_index).get_max_active_clusters(cluster // per_sm))
        return _active[key]
    except Exception as exc:  # no answer: no split, the launch runs as before
        no_answer = f"{type(exc).__name__}: {exc}"
        _active[key] = 0
        return 0


@functools.cache
def _side_stream(device_index: int, caller: int) -> torch.cuda.Stream:
    """One side stream per calling stream: calls on two streams at once (or one of them capturing) never
    share one, so neither waits for the other's side rows."""
    return torch.cuda.Stream(device=device_index)


def _rows(call: Call, lo: int, hi: int) -> Call:
    """``call`` on rows ``[lo, hi)`` (both multiples of next_n). Neither kernel reads the hint (pre_idx)."""
    nn = call.next_n
    return replace(call, logits=call.logits[lo:hi], seq_lens=call.seq_lens[lo // nn:hi // nn],
                   indices=call.indices[lo:hi], values=None if call.values is None else call.values[lo:hi],
                   pre_idx=None)


def wave_rows(call: Call, geo: tuple[int, int, int]) -> int:
    """Rows the cluster kernel takes; the rest (if any) go to the side kernel."""
    rows, n = call.logits.shape
    cluster, threads, _ = geo
    if cluster < 2 or not checks.side_supported(call.top_k):
        return rows
    dev = call.logits.device
    per_sm = checks.reg_ctas_per_sm(threads)
    active = active_clusters(dev.index, cluster, per_sm)
    sms = torch.cuda.get_device_properties(dev).multi_processor_count
    return checks.wave_split(rows, call.next_n, cluster, per_sm, active, sms)


def run_split(call: Call, wave: int, run_wave) -> None:
    """``run_wave(sub_call)`` on rows ``[0, wave)`` on the current stream, rows ``[wave, rows)`` on the side."""
    from topk_radix_filter import launch as side_launch

    cur = torch.cuda.current_stream(call.logits.device)
    side = _side_stream(call.logits.device.index, cur.cuda_stream)
    side.wait_stream(cur)
    run_wave(_rows(call, 0, wave))
    with torch.cuda.stream(side):
        side_launch.launch(_rows(call, wave, call.logits.shape[0]), side_launch.PLANNED[SIDE_VARIANT])
    cur.wait_stream(side)
