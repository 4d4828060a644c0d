"""The once-per-process warm-up (ui.warm_up.start_warm_up): it fills the same process-wide caches the pages read,
survives a failing step, starts one thread per process, and only under `streamlit run` (never in AppTest)."""
from __future__ import annotations

import logging

import pytest
from streamlit.testing.v1 import AppTest

from helm_core import data
from ui import cache, warm_up

from .helpers import ROOT


@pytest.fixture
def no_warm_thread(monkeypatch):
    monkeypatch.setattr(warm_up, "_warm_thread", None)


def test_the_steps_cover_every_bundled_release_and_source():
    names = [name for name, _ in warm_up.warm_up_steps()]
    assert [n for n in names if n.startswith("release ")] == [f"release {r}" for r in cache.RELEASES]
    sources = {n.removeprefix("bundled output ") for n in names if n.startswith("bundled output ")}
    assert sources == set(cache.bundled_sources())


def test_a_warmed_loader_is_not_loaded_again(monkeypatch, no_warm_thread):
    calls = []
    real = data.load_bundled
    monkeypatch.setattr(data, "load_bundled", lambda name: calls.append(name) or real(name))
    monkeypatch.setattr(warm_up, "warm_up_steps", lambda: [(f"release {n}", lambda n=n: cache.bundled_release(n))
                                                         for n in cache.RELEASES])
    thread = warm_up.start_warm_up(force=True)
    assert thread is not None
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert calls == list(cache.RELEASES)
    for name in cache.RELEASES:  # what a page asks for now comes from the cache the warm-up filled
        assert cache.bundled_release(name).name == cache.RELEASES[name]
    assert calls == list(cache.RELEASES)


def test_a_failing_step_is_logged_and_the_rest_still_loads(caplog):
    done = []

    def broken():
        raise FileNotFoundError("data/real_runs/missing")

    with caplog.at_level(logging.WARNING, logger="ui.warm_up"):
        warm_up._warm([("broken", broken), ("after", lambda: done.append(True))])
    assert done == [True]
    assert "warm-up of broken failed" in caplog.text and "missing" in caplog.text


def test_one_thread_per_process(monkeypatch, no_warm_thread):
    monkeypatch.setattr(warm_up, "warm_up_steps", lambda: [])
    first = warm_up.start_warm_up(force=True)
    first.join(timeout=10)
    assert warm_up.start_warm_up() is None  # Home.py's later runs: started already
    assert warm_up._warm_thread is first


def test_apptest_runs_start_no_warm_up(no_warm_thread):
    """Under AppTest the runtime is a mock and tests clear the caches: warming them would only cost the tests."""
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=60)
    at.run()
    assert not at.exception
    assert warm_up._warm_thread is None
