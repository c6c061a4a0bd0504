"""GPU-only conformance: CUDA-graph replay with changing inputs, and two streams at once.

Mix ``GpuConformance`` into a backend's ``BackendConformance`` subclass; its ``hint`` (a ``make_hint``
mode) is passed here too, refreshed in place before each replay.
"""

from __future__ import annotations

import pytest
import torch

from ..api import top_k_varlen
from .check import check_topk
from .inputs import make_hint, make_logits, make_seq_lens


class GpuConformance:
    backend: str
    graph_shapes = ((4, 8192, 2048), (3, 5000, 64))
    #: (rows, n, k) of the captured call and of the larger eager call after it: a backend whose scratch depends on
    #: other shapes (radix_filter's row order: many rows) names ones that make it grow.
    scratch_growth_shapes = ((2, 8192, 256), (64, 131072, 2048))
    load_balance: bool = True
    hint: str | None = None

    def _cuda(self):
        if not torch.cuda.is_available():
            pytest.skip("needs a CUDA GPU")
        return torch.device("cuda")

    def _hint(self, logits, seq_lens, k, next_n=1, seed=0):
        """A ``pre_idx`` of the class's ``hint`` mode for these inputs, or None without one."""
        if self.hint is None:
            return None
        return make_hint(logits, seq_lens, k, next_n=next_n, mode=self.hint, seed=seed)

    @pytest.mark.parametrize("next_n", [1, 2])
    def test_cuda_graph_replay_with_changing_lengths(self, next_n):
        dev = self._cuda()
        for rows, n, k in self.graph_shapes:
            rows *= next_n
            logits = make_logits("randn", rows, n, torch.float32, dev, seed=1, k=k)
            seq_lens = make_seq_lens(rows // next_n, n, next_n=next_n, seed=1, mode="uniform", device=dev)
            out_i = torch.empty(rows, k, dtype=torch.int32, device=dev)
            out_v = torch.empty(rows, k, dtype=torch.float32, device=dev)
            pre_idx = self._hint(logits, seq_lens, k, next_n, seed=1)
            stream = torch.cuda.Stream(dev)

            def step(logits=logits, seq_lens=seq_lens, k=k, out_i=out_i, out_v=out_v, pre_idx=pre_idx):
                top_k_varlen(logits, seq_lens, k, pre_idx=pre_idx, next_n=next_n, return_values=True,
                             out_indices=out_i, out_values=out_v, backend=self.backend,
                             load_balance=self.load_balance)

            with torch.cuda.stream(stream):
                step()  # eager warm-up on the capturing stream: compile + scratch
            stream.synchronize()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                step()
            full = n + next_n - 1
            for trial, special in enumerate(([0, -3], [full + 999, 1], [n // 3, full])):
                logits.copy_(make_logits("int_ties" if trial == 1 else "randn", rows, n, torch.float32,
                                         dev, seed=100 + trial, k=k))
                fresh = make_seq_lens(rows // next_n, n, next_n=next_n, seed=100 + trial, mode="mixed")
                fresh[: len(special)] = torch.tensor(special[: fresh.numel()], dtype=torch.int32)
                seq_lens.copy_(fresh.to(dev))
                if pre_idx is not None:  # the graph reads the hint buffer it captured
                    pre_idx.copy_(self._hint(logits, seq_lens, k, next_n, seed=100 + trial))
                out_i.zero_()
                out_v.zero_()
                graph.replay()
                torch.cuda.synchronize()
                check_topk(logits, seq_lens, k, out_i, out_v, next_n=next_n)

    def test_graph_survives_scratch_growth(self):
        """Capture a small call, then run a larger one eagerly on the same stream (its scratch may grow), then replay
        the small graph: it still uses the scratch it captured, which must not have been freed and handed to another
        tensor (``workspace._retired``). Tensors allocated after the growth must come out of the replay untouched."""
        dev = self._cuda()
        stream = torch.cuda.Stream(dev)
        (rows, n, k), (big_rows, big_n, big_k) = self.scratch_growth_shapes
        logits = make_logits("randn", rows, n, torch.float32, dev, seed=31, k=k)
        seq_lens = make_seq_lens(rows, n, seed=31, mode="uniform", device=dev)
        out_i = torch.empty(rows, k, dtype=torch.int32, device=dev)
        pre_idx = self._hint(logits, seq_lens, k, seed=31)

        def step():
            top_k_varlen(logits, seq_lens, k, pre_idx=pre_idx, out_indices=out_i, backend=self.backend,
                         load_balance=self.load_balance)

        with torch.cuda.stream(stream):
            step()
        stream.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            step()
        big = make_logits("randn", big_rows, big_n, torch.float32, dev, seed=32, k=big_k)
        big_lens = make_seq_lens(big_rows, big_n, seed=32, mode="uniform", device=dev)
        with torch.cuda.stream(stream):
            idx, _ = top_k_varlen(big, big_lens, big_k, pre_idx=self._hint(big, big_lens, big_k, seed=32),
                                  backend=self.backend, load_balance=self.load_balance)
        stream.synchronize()
        check_topk(big, big_lens, big_k, idx)
        del big, idx
        fillers = [torch.full((1 << p,), 0x7F, dtype=torch.uint8, device=dev) for p in range(10, 27) for _ in (0, 1)]
        logits.copy_(make_logits("randn", rows, n, torch.float32, dev, seed=33, k=k))
        if pre_idx is not None:
            pre_idx.copy_(self._hint(logits, seq_lens, k, seed=33))
        out_i.zero_()
        graph.replay()
        torch.cuda.synchronize()
        check_topk(logits, seq_lens, k, out_i)
        assert all(bool((f == 0x7F).all()) for f in fillers), "the replay wrote to memory it no longer owns"

    def test_two_streams_at_once(self):
        dev = self._cuda()
        rows, n, k = 16, 32768, 1024
        streams = [torch.cuda.Stream(dev) for _ in range(2)]
        inputs = [(make_logits("randn", rows, n, torch.float32, dev, seed=s, k=k),
                   make_seq_lens(rows, n, seed=s, mode="mixed", device=dev)) for s in (21, 22)]
        hints = [self._hint(logits, lens, k, seed=s) for (logits, lens), s in zip(inputs, (21, 22))]
        torch.cuda.synchronize()
        results = []
        for _ in range(2):  # first round creates per-stream state, second runs truly at once
            results = []
            for stream, (logits, lens), pre_idx in zip(streams, inputs, hints):
                with torch.cuda.stream(stream):
                    results.append(top_k_varlen(logits, lens, k, pre_idx=pre_idx, return_values=True,
                                                backend=self.backend, load_balance=self.load_balance))
            torch.cuda.synchronize()
        for (logits, lens), (idx, vals) in zip(inputs, results):
            check_topk(logits, lens, k, idx, vals)
