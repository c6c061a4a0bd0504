"""The shared measured-score lookup: nearest cell in log2 space, halved per octave beyond one."""

import pytest

from topk_core.kernels.scores import measured_score, nearest_cell, octaves_away
from topk_core.protocol import Problem

TABLE = {(1, 8192): 6.0, (1, 131072): 4.0, (128, 32768): 3.0, (4096, 8192): 2.0}


def P(rows, n):
    return Problem(rows=rows, n=n, k=2048, dtype="float32")


def test_exact_cell_is_the_measurement():
    for (rows, n), speedup in TABLE.items():
        assert measured_score(TABLE, P(rows, n)) == speedup


def test_nearest_in_log2_space():
    assert nearest_cell(TABLE, 1, 16384) == (1, 8192)  # 1 octave from 8K, 3 from 128K
    assert nearest_cell(TABLE, 1, 65536) == (1, 131072)
    assert nearest_cell(TABLE, 100, 40000) == (128, 32768)
    assert nearest_cell(TABLE, 2048, 8000) == (4096, 8192)
    assert nearest_cell(TABLE, 0, 0) == (1, 8192)  # sizes below 1 count as 1
    assert nearest_cell({}, 1, 1) is None


def test_within_one_octave_counts_in_full():
    assert measured_score(TABLE, P(2, 16384)) == 6.0
    assert measured_score(TABLE, P(200, 60000)) == 3.0


def test_halved_per_octave_beyond_the_first():
    assert octaves_away((1, 131072), 1, 1 << 20) == 3
    assert measured_score(TABLE, P(1, 1 << 20)) == pytest.approx(4.0 / 4)
    assert measured_score(TABLE, P(512, 32768)) == pytest.approx(3.0 / 2)
    assert measured_score(TABLE, P(16, 32768)) == pytest.approx(3.0 / 4)
    # The farther axis decides, not the sum.
    assert measured_score(TABLE, P(512, 65536)) == pytest.approx(3.0 / 2)
    assert measured_score(TABLE, P(1 << 20, 1 << 24)) > 0
    assert measured_score(TABLE, P(1, 1 << 20), free_octaves=3) == 4.0


def test_empty_table_and_purity():
    assert measured_score({}, P(1, 8192)) is None
    before = dict(TABLE)
    assert measured_score(TABLE, P(3, 5)) == measured_score(TABLE, P(3, 5))
    assert TABLE == before
