"""ui.run_gate: at most SLOTS page runs hold a slot at once, and a run that ends by an exception (st.stop,
st.rerun, st.switch_page, an error) frees its slot."""
from __future__ import annotations

import threading

import pytest

from ui import run_gate


@pytest.fixture
def two_slots(monkeypatch):
    monkeypatch.setattr(run_gate, "_slots", threading.BoundedSemaphore(2))
    return run_gate._slots


def test_no_third_run_while_two_hold_a_slot(two_slots):
    entered, release = threading.Barrier(3), threading.Event()

    def run():
        with run_gate.slot():
            entered.wait(timeout=30)
            release.wait(timeout=30)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    entered.wait(timeout=30)  # both runs are inside their slot
    assert two_slots.acquire(blocking=False) is False
    release.set()
    for t in threads:
        t.join(timeout=30)
    assert two_slots.acquire(blocking=False) and two_slots.acquire(blocking=False)


@pytest.mark.parametrize("exc", [RuntimeError("a page error"), KeyboardInterrupt(), SystemExit()])
def test_a_run_that_raises_frees_its_slot(two_slots, exc):
    for _ in range(3):  # more often than there are slots: each one came back
        with pytest.raises(type(exc)):
            with run_gate.slot():
                raise exc
    assert two_slots.acquire(blocking=False) and two_slots.acquire(blocking=False)
    assert two_slots.acquire(blocking=False) is False


@pytest.mark.parametrize("raw, expected", [("1", 1), ("3", 3), ("0", 1), ("-2", 1), ("two", 2), ("", 2)])
def test_slots_from_the_environment(monkeypatch, raw, expected):
    import importlib

    monkeypatch.setenv("HELM_RUN_SLOTS", raw)
    try:
        assert importlib.reload(run_gate).SLOTS == expected
    finally:
        monkeypatch.delenv("HELM_RUN_SLOTS")
        importlib.reload(run_gate)
