"""GPU-only conformance: CUDA-graph replay with changing inputs, and two streams at once.

Mix ``GpuConformance`` into a backend's ``BackendConformance`` subclass.
"""

from __future__ import annotations

import pytest
import torch

from ..api import top_k_varlen
from .check import check_topk
from .inputs import make_logits, make_seq_lens


class GpuConformance:
    backend: str
    graph_shapes = ((4, 8192, 2048), (3, 5000, 64))
    load_balance: bool = True

    def _cuda(self):
        if not torch.cuda.is_available():
            pytest.skip("needs a CUDA GPU")
        return torch.device("cuda")

    @pytest.mark.parametrize("next_n", [1, 2])
    def test_cuda_graph_replay_with_changing_lengths(self, next_n):
        dev = self._cuda()
        for rows, n, k in self.graph_shapes:
            rows *= next_n
            logits = make_logits("randn", rows, n, torch.float32, dev, seed=1, k=k)
            seq_lens = make_seq_lens(rows // next_n, n, next_n=next_n, seed=1, mode="uniform", device=dev)
            out_i = torch.empty(rows, k, dtype=torch.int32, device=dev)
            out_v = torch.empty(rows, k, dtype=torch.float32, device=dev)
            stream = torch.cuda.Stream(dev)

            def step(logits=logits, seq_lens=seq_lens, k=k, out_i=out_i, out_v=out_v):
                top_k_varlen(logits, seq_lens, k, next_n=next_n, return_values=True,
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
                out_i.zero_()
                out_v.zero_()
                graph.replay()
                torch.cuda.synchronize()
                check_topk(logits, seq_lens, k, out_i, out_v, next_n=next_n)

    def test_two_streams_at_once(self):
        dev = self._cuda()
        rows, n, k = 16, 32768, 1024
        streams = [torch.cuda.Stream(dev) for _ in range(2)]
        inputs = [(make_logits("randn", rows, n, torch.float32, dev, seed=s, k=k),
                   make_seq_lens(rows, n, seed=s, mode="mixed", device=dev)) for s in (21, 22)]
        torch.cuda.synchronize()
        results = []
        for _ in range(2):  # first round creates per-stream state, second runs truly at once
            results = []
            for stream, (logits, lens) in zip(streams, inputs):
                with torch.cuda.stream(stream):
                    results.append(top_k_varlen(logits, lens, k, return_values=True, backend=self.backend,
                                                load_balance=self.load_balance))
            torch.cuda.synchronize()
        for (logits, lens), (idx, vals) in zip(inputs, results):
            check_topk(logits, lens, k, idx, vals)
