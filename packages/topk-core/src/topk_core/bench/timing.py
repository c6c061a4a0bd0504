"""Timing with CUDA-graph replay over rotating inputs (cold L2), or wall clock on CPU."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

import torch

ROTATE_BYTES = 256 << 20  # well past the H200's 60 MB L2
#: Cycles of a sleep kernel queued before each timed replay: the GPU is busy while the host enqueues the start
#: event and the graph, so the events bracket GPU work only, as in a serving loop whose launches run ahead of the
#: GPU. Without it the host's graph launch showed in small cells (H200, session 14, shared/device/graph_timing.py,
#: µs: 1x8K auto 4.77 -> 4.70, FlashInfer top_k 8.70 -> 8.52; 1x128K 7.90 -> 7.73, 13.13 -> 13.00).
HOLD_CYCLES = 1_000_000


def rotations(nbytes: int, cap: int = 32) -> int:
    return max(2, min(cap, math.ceil(ROTATE_BYTES / max(nbytes, 1))))


def time_graph(step: Callable[[int], None], count: int, replays: int = 20, hold_cycles: int = HOLD_CYCLES) -> float:
    """Median µs per call of ``step(i)`` for i in range(count), captured in one graph.

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
    return statistics.median(samples)


def time_wall(step: Callable[[int], None], count: int, repeats: int = 3) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for i in range(count):
            step(i)
        samples.append((time.perf_counter() - t0) * 1e6 / count)
    return statistics.median(samples)


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
