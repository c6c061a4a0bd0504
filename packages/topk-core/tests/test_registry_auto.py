"""Discovery, broken plugins, env knobs and the auto ranking, all off the GPU."""

import logging

import pytest
import torch

import topk_core
from topk_core import env, registry
from topk_core.auto import choose, rank
from topk_core.protocol import PROTOCOL_VERSION, Problem


class FakeEP:
    def __init__(self, name, target):
        self.name, self._target = name, target
        self.dist = None

    def load(self):
        if isinstance(self._target, Exception):
            raise self._target
        return self._target


class Fast:
    protocol = PROTOCOL_VERSION

    def __init__(self, name, score=5.0, refuse=None, env_reason=None):
        self.name, self._score, self._refuse, self._env = name, score, refuse, env_reason

    def environment(self):
        return self._env

    def supports(self, p):
        return self._refuse

    def score(self, p):
        return self._score

    def run(self, p, call):
        raise AssertionError("not run in these tests")


@pytest.fixture
def fake_eps(monkeypatch):
    def install(*eps):
        monkeypatch.setattr(registry, "entry_points", lambda group: list(eps))
        registry.entries(refresh=True)

    yield install
    monkeypatch.undo()
    registry.entries(refresh=True)


def test_broken_plugin_is_logged_and_skipped(fake_eps, caplog):
    with caplog.at_level(logging.WARNING, logger="topk_core"):
        fake_eps(FakeEP("broken", ImportError("no module named cutlass")), FakeEP("good", Fast("good")))
    assert "skipping backend 'broken'" in caplog.text
    assert registry.get("broken").error.startswith("ImportError")
    assert "good" in topk_core.available_backends() and "broken" not in topk_core.available_backends()
    p = Problem(rows=1, n=10, k=2, dtype="float32", device="cpu")
    verdicts = {v.name: v for v in rank(p)}
    assert "failed to load" in verdicts["broken"].reason


@pytest.mark.parametrize("bad", [Fast("othername"), type("Old", (Fast,), {"protocol": 0})("old")])
def test_mismatched_plugins_are_refused(fake_eps, bad):
    name = "old" if bad.name == "old" else "wrongname"
    fake_eps(FakeEP(name, bad))
    assert registry.get(name).backend is None


def test_reference_always_present_and_last(fake_eps):
    fake_eps(FakeEP("a", Fast("a", 1.0)), FakeEP("b", Fast("b", 3.0)), FakeEP("c", Fast("c", 9.0, refuse="no")),
             FakeEP("d", Fast("d", 99.0, env_reason="no GPU")))
    p = Problem(rows=1, n=10, k=2, dtype="float32")
    names = [v.name for v in rank(p)]
    assert names[:3] == ["b", "a", "reference"]
    assert choose(p) == "b"
    refused = {v.name: v.reason for v in rank(p) if not v.usable}
    assert refused == {"c": "no", "d": "no GPU"}


def test_disabled_backends_env(fake_eps, monkeypatch):
    fake_eps(FakeEP("b", Fast("b", 3.0)))
    monkeypatch.setenv("TOPK_DISABLED_BACKENDS", "b, x")
    assert env.disabled_backends() == {"b", "x"}
    assert choose(Problem(rows=1, n=10, k=2, dtype="float32")) == "reference"


def test_forced_backend_env(monkeypatch):
    monkeypatch.setenv("TOPK_BACKEND", "nonexistent")
    with pytest.raises(ValueError, match="unknown backend 'nonexistent'"):
        topk_core.top_k_varlen(torch.randn(2, 8), torch.tensor([8, 8], dtype=torch.int32), 2)


def test_explain_lists_every_backend(fake_eps):
    fake_eps(FakeEP("b", Fast("b", 3.0)), FakeEP("c", Fast("c", 9.0, refuse="only bf16")))
    text = topk_core.explain(torch.randn(4, 100), None, 8)
    assert "-> b" in text and "reference" in text and "refused: only bf16" in text


def test_log_dispatch(fake_eps, monkeypatch, caplog):
    fake_eps(FakeEP("b", Fast("b", 3.0)))
    monkeypatch.setenv("TOPK_LOG_DISPATCH", "1")
    with caplog.at_level(logging.INFO, logger="topk_core"):
        choose(Problem(rows=7, n=11, k=2, dtype="float32"))
    assert "topk auto" in caplog.text and "-> b" in caplog.text


def test_import_is_cheap():
    import subprocess
    import sys

    code = "import topk_core, sys; assert 'cutlass' not in sys.modules and 'triton' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_sgl_compose_knob(monkeypatch):
    for value in ("model", "always", "never"):
        monkeypatch.setenv("TOPK_SGL_COMPOSE", value)
        assert env.sgl_compose() == value
    monkeypatch.setenv("TOPK_SGL_COMPOSE", "sometimes")
    with pytest.raises(ValueError, match="TOPK_SGL_COMPOSE: expected model, always or never, got 'sometimes'"):
        env.sgl_compose()
