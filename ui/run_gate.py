"""At most a few page runs of this process at once; the others wait their turn, in arrival order.

The server is one Python process: one thread runs Python at a time, and N sessions' runs started together share
the interpreter in 5 ms slices, so each one finishes only when all of them do (50 joiners of the home page: every
first page at ~2.6 s, bench/README.md). In turns, the first viewer is served after one run's time and the median
viewer after half the total, for the same total. `SLOTS` runs at a time (default 2, `HELM_RUN_SLOTS`) keep a run
that waits on a file from holding up the rest.

Home.py wraps its page's run: `with run_gate.slot(): pg.run()`. A run that ends early (st.stop, st.rerun,
st.switch_page, an error) leaves the block by its exception and frees its slot."""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

SLOTS = max(1, int(os.environ.get("HELM_RUN_SLOTS", "2")))
_slots = threading.BoundedSemaphore(SLOTS)  # waiters are woken in the order they came (threading.Condition)


@contextlib.contextmanager
def slot() -> Iterator[None]:
    """Hold one of the process's run slots for the block."""
    with _slots:
        yield
