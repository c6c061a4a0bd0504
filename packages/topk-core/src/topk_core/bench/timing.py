"""Timing with CUDA-graph replay over rotating inputs, or wall clock on CPU.

The rotation holds up to ``ROTATION_CAP`` input sets, ``ROTATE_BYTES`` in all where that many reach it: cells whose
sets stay under that (1x8K: 32 KB a set, 1 MB in all) are timed with their inputs in L2, as a decode step finds
the indexer's freshly written scores."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

import torch

ROTATE_BYTES = 256 << 20  # well past the H200's 60 MB L2
ROTATION_CAP = 32  # input sets at most (one graph captures a call on each)
#: Cycles of a sleep kernel queued before each timed replay: the GPU is busy while the host enqueues the start
#: event and the graph, so the events bracket GPU work only, as in a serving loop whose launches run ahead of the
#: GPU. Without it the host's graph launch showed in small cells (H200, session 14, shared/device/graph_timing.py,
#: µs: 1x8K auto 4.77 -> 4.70, FlashInfer top_k 8.70 -> 8.52; 1x128K 7.90 -> 7.73, 13.13 -> 13.00).
HOLD_CYCLES = 1_000_000


def rotations(nbytes: int, cap: int = ROTATION_CAP) -> int:
    return max(2, min(cap, math.ceil(ROTATE_BYTES / max(nbytes, 1))))


def spread(samples: list[float]) -> dict:
    """``min``, quartiles and ``max`` of per-call samples (µs), for the JSON."""
    q = statistics.quantiles(samples, n=4) if len(samples) > 1 else [samples[0]] * 3
    return dict(min=min(samples), q1=q[0], median=statistics.median(samples), q3=q[2], max=max(samples),
                n=len(samples))


def time_graph(step: Callable[[int], None], count: int, replays: int = 20, hold_cycles: int = HOLD_CYCLES) -> float:
    """Median µs per call of ``step(i)`` for i in range(count), captured in one graph (``time_graph_samples``)."""
    return statistics.median(time_graph_samples(step, count, replays, hold_cycles))


def time_graph_samples(step: Callable[[int], None], count: int, replays: int = 20,
                       hold_cycles: int = HOLD_CYCLES) -> list[float]:
    """µs per call of ``step(i)`` for i in range(count), one sample per replay of one graph capturing them all.

    ``step`` must already have run eagerly on the current stream for every i. Each timed replay
    waits behind a sleep kernel of ``hold_cycles`` (0: none), so host launch latency is not counted.
    """
    stream = torch.cuda.current_stream()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        for i in range(count):
            step(i)
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    samples = []
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(replays):
        if hold_cycles:
            torch.cuda._sleep(hold_cycles)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) * 1e3 / count)
    del graph
    return samples


def time_wall(step: Callable[[int], None], count: int, repeats: int = 3) -> float:
    return statistics.median(time_wall_samples(step, count, repeats))


def time_wall_samples(step: Callable[[int], None], count: int, repeats: int = 3) -> list[float]:
    """µs per call of ``step(i)`` for i in range(count), by the host's clock (CPU), one sample per pass."""
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for i in range(count):
            step(i)
        samples.append((time.perf_counter() - t0) * 1e6 / count)
    return samples


def copy_bandwidth_gbs(nbytes: int = 1 << 30) -> float:
    """Device-to-device copy rate, bytes read + written per second (the floor's yardstick)."""
    src = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda").uniform_()
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(10):
        start.record()
        dst.copy_(src)
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) * 1e-3)
    del src, dst
    return 2 * nbytes / statistics.median(samples) / 1e9
