"""At most a few page runs of this process at once; the others wait their turn, in arrival order.

The server is one Python process: one thread runs Python at a time, and N sessions' runs started together share
the interpreter in 5 ms slices, so each one finishes only when all of them do (50 joiners of the home page: every
first page at ~2.6 s, bench/README.md). In turns, the first viewer is served after one run's time and the median
viewer after half the total, for the same total. `SLOTS` runs at a time (default 2, `HELM_RUN_SLOTS`) keep a run
that waits on a file from holding up the rest.

Home.py runs every page inside `with run_gate.slot(wait=not viewport.presenting()): pg.run()` (the router and the
sidebar stay outside, and the presenter never waits). `python -m bench.audience --gate 2` measures the gate through
bench/variants on a tree that has none. A run that ends early (st.stop, st.rerun,
st.switch_page, an error) leaves the block by its exception and frees its slot."""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

DEFAULT_SLOTS = 2


def _slots_from(raw: str | None) -> int:
    """HELM_RUN_SLOTS as a count of at least 1; the default when unset or not a whole number."""
    try:
        return max(1, int(raw)) if raw is not None else DEFAULT_SLOTS
    except ValueError:
        return DEFAULT_SLOTS


SLOTS = _slots_from(os.environ.get("HELM_RUN_SLOTS"))
_slots = threading.BoundedSemaphore(SLOTS)  # waiters are woken in the order they came (threading.Condition)


@contextlib.contextmanager
def slot(*, wait: bool = True) -> Iterator[None]:
    """Hold one of the process's run slots for the block. `wait=False` (the presenter on stage): run now, outside
    the turns, so an audience joining at once never holds up the presenter's next slide."""
    if not wait:
        yield
        return
    with _slots:
        yield
