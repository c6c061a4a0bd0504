"""The benchmark's timer: rotation counts on CPU; on a GPU, the sleep kernel that holds each replay is not timed."""

import pytest
import torch

from topk_core.bench import timing


def test_rotations_cover_the_l2_and_stay_bounded():
    assert timing.rotations(1 << 30) == 2
    assert timing.rotations(32 * 1024) == 32
    assert timing.rotations(16 << 20) == 16


@pytest.mark.gpu
def test_time_graph_does_not_count_the_hold():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    x = torch.zeros(1024, device="cuda")
    with torch.cuda.stream(torch.cuda.Stream()):
        x.add_(1)
        torch.cuda.synchronize()
        us = timing.time_graph(lambda i: x.add_(1), 1, replays=5)
    # The hold is 10^6 cycles (> 400 µs at any H200 clock); one tiny kernel takes a few µs.
    assert 0 < us < 50, us
